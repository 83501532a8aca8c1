import { useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from '@app/singletons/react-i18n';
import { SUPPORTED_CHAIN_ID, type WalletState } from '@app/contracts';
import { explorerAddressUrl, shortAddress } from '@app/web3';
import { useShell } from '../app/ShellContext';

/**
 * The wallet's state as the header shows it: linked and connected here; linked but not connected in
 * this browser (a new browser, or disconnected); connected on another network; or none linked.
 */
export type WalletMenuState = 'connected' | 'not-connected' | 'wrong-network' | 'none';

export function walletMenuState(linked: string | null, wallet: WalletState): WalletMenuState {
  if (!linked) return 'none';
  if (!wallet.connected || wallet.account?.toLowerCase() !== linked.toLowerCase()) return 'not-connected';
  return wallet.chainId === SUPPORTED_CHAIN_ID ? 'connected' : 'wrong-network';
}

/**
 * The header's wallet: the linked address with its state, and a menu to connect or reconnect,
 * switch the network, copy the address, open it on the explorer, or disconnect it from this browser.
 * With no wallet linked, the spec's connect button.
 */
export function WalletMenu({ linked, wallet }: { linked: string | null; wallet: WalletState }) {
  const { t } = useTranslation('shell');
  const { bus, wallet: walletService } = useShell();
  const [open, setOpen] = useState(false);
  const menuId = useId();
  const root = useRef<HTMLDivElement>(null);
  const state = walletMenuState(linked, wallet);

  useEffect(() => {
    if (!open) return;
    const close = (event: Event) => {
      if (event instanceof KeyboardEvent ? event.key === 'Escape' : !root.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('keydown', close);
    document.addEventListener('pointerdown', close);
    return () => {
      document.removeEventListener('keydown', close);
      document.removeEventListener('pointerdown', close);
    };
  }, [open]);

  if (!linked) {
    return (
      <button type="button" className="btn btn--primary" data-wallet-state="none" onClick={() => bus.send({ type: 'wallet/connect' })}>
        {t('header.connectWallet')}
      </button>
    );
  }

  const act = (action: () => unknown) => () => {
    setOpen(false);
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
    <div className="wallet-menu" ref={root} data-wallet-state={state}>
      <button
        type="button"
        className={`wallet-chip wallet-chip--${state}`}
        aria-expanded={open}
        aria-controls={menuId}
        aria-label={`${t('header.wallet', { address: linked })}, ${t(`walletMenu.state.${state}`)}`}
        onClick={() => setOpen((o) => !o)}
      >
        <span className="wallet-chip__dot" aria-hidden="true" />
        <span title={linked} data-testid="linked-wallet">
          {shortAddress(linked)}
        </span>
        {state !== 'connected' ? (
          <span className="wallet-chip__state" data-testid="wallet-state">
            {t(`walletMenu.state.${state}`)}
          </span>
        ) : null}
      </button>
      {open ? (
        <div className="wallet-menu__panel" id={menuId} data-testid="wallet-menu">
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
            <a className="btn btn--outline btn--sm" href={explorerAddressUrl(SUPPORTED_CHAIN_ID, linked)} target="_blank" rel="noreferrer noopener" onClick={() => setOpen(false)}>
              {t('walletMenu.explorer')}
            </a>
            {state !== 'not-connected' ? (
              <button type="button" className="btn btn--gray btn--sm" onClick={act(() => walletService.disconnect())}>
                {t('walletMenu.disconnect')}
              </button>
            ) : null}
          </div>
        </div>
      ) : null}
    </div>
  );
}
