import { useEffect, useRef } from 'react';
import { useTranslation } from '@app/singletons/react-i18n';
import { SUPPORTED_CHAIN_ID, type WalletState } from '@app/contracts';
import { explorerAddressUrl } from '@app/web3';
import { useShell } from '../app/ShellContext';
import type { WalletMenuState } from './WalletMenu';

/**
 * The wallet menu, open: the address, its network, and the actions its state allows. Escape or a
 * press outside the menu (its chip included, which toggles it) closes it.
 */
export function WalletMenuPanel({ id, linked, wallet, state, onClose }: { id: string; linked: string; wallet: WalletState; state: WalletMenuState; onClose(): void }) {
  const { t } = useTranslation('shell');
  const { bus, wallet: walletService } = useShell();
  const panel = useRef<HTMLDivElement>(null);

  useEffect(() => {
    // The menu's root holds the chip too: a press on the chip is its own toggle, not an outside press.
    const root = panel.current?.parentElement;
    const close = (event: Event) => {
      if (event instanceof KeyboardEvent ? event.key === 'Escape' : !root?.contains(event.target as Node)) onClose();
    };
    document.addEventListener('keydown', close);
    document.addEventListener('pointerdown', close);
    return () => {
      document.removeEventListener('keydown', close);
      document.removeEventListener('pointerdown', close);
    };
  }, [onClose]);

  const act = (action: () => unknown) => () => {
    onClose();
    void action();
  };
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(linked);
      bus.send({ type: 'notify', notification: { kind: 'success', message: t('walletMenu.copied') } });
    } catch {
      bus.send({ type: 'notify', notification: { kind: 'warning', message: t('walletMenu.copyFailed') } });
    }
  };

  return (
    <div className="wallet-menu__panel" id={id} data-testid="wallet-menu" ref={panel}>
      <p className="wallet-menu__address" title={linked}>
        {linked}
      </p>
      <p className="muted">
        {state === 'not-connected'
          ? t('walletMenu.notConnectedHint')
          : state === 'wrong-network'
            ? t('walletMenu.network', { network: t('walletMenu.otherNetwork', { id: wallet.chainId }) })
            : t('walletMenu.network', { network: t('walletMenu.ethereum') })}
      </p>
      <div className="wallet-menu__actions">
        {state === 'not-connected' ? (
          <button type="button" className="btn btn--primary btn--sm" onClick={act(() => bus.send({ type: 'wallet/connect' }))}>
            {wallet.connected ? t('walletMenu.reconnect') : t('walletMenu.connect')}
          </button>
        ) : null}
        {state === 'wrong-network' ? (
          <button type="button" className="btn btn--primary btn--sm" onClick={act(() => walletService.switchNetwork())}>
            {t('wallet.switchNetwork')}
          </button>
        ) : null}
        <button type="button" className="btn btn--outline btn--sm" onClick={act(copy)}>
          {t('walletMenu.copy')}
        </button>
        <a className="btn btn--outline btn--sm" href={explorerAddressUrl(SUPPORTED_CHAIN_ID, linked)} target="_blank" rel="noreferrer noopener" onClick={onClose}>
          {t('walletMenu.explorer')}
        </a>
        {state !== 'not-connected' ? (
          <button type="button" className="btn btn--gray btn--sm" onClick={act(() => walletService.disconnect())}>
            {t('walletMenu.disconnect')}
          </button>
        ) : null}
      </div>
    </div>
  );
}
