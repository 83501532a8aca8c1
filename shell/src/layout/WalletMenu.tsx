import { lazy, Suspense, useCallback, useId, useState } from 'react';
import { useTranslation } from '@app/singletons/react-i18n';
import { SUPPORTED_CHAIN_ID, type WalletState } from '@app/contracts';
import { shortAddress } from '@app/web3';
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

// The open menu is a chunk of its own: a page's first paint shows the chip or the connect button,
// and the menu's actions (with the explorer's addresses per chain) come when the chip is pressed or
// first hovered or focused.
const loadPanel = () => import(/* webpackChunkName: "wallet-menu" */ './WalletMenuPanel');
const WalletMenuPanel = lazy(() => loadPanel().then((m) => ({ default: m.WalletMenuPanel })));
const preloadPanel = () => void loadPanel().catch(() => undefined);

/**
 * The header's wallet: the linked address with its state, and a menu to connect or reconnect,
 * switch the network, copy the address, open it on the explorer, or disconnect it from this browser.
 * With no wallet linked, the spec's connect button.
 */
export function WalletMenu({ linked, wallet }: { linked: string | null; wallet: WalletState }) {
  const { t } = useTranslation('shell');
  const { bus } = useShell();
  const [open, setOpen] = useState(false);
  const menuId = useId();
  const state = walletMenuState(linked, wallet);
  const close = useCallback(() => setOpen(false), []);

  if (!linked) {
    return (
      <button type="button" className="btn btn--primary" data-wallet-state="none" onClick={() => bus.send({ type: 'wallet/connect' })}>
        {t('header.connectWallet')}
      </button>
    );
  }

  return (
    <div className="wallet-menu" data-wallet-state={state}>
      <button
        type="button"
        className={`wallet-chip wallet-chip--${state}`}
        aria-expanded={open}
        aria-controls={menuId}
        aria-label={`${t('header.wallet', { address: linked })}, ${t(`walletMenu.state.${state}`)}`}
        onPointerEnter={preloadPanel}
        onFocus={preloadPanel}
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
        <Suspense fallback={null}>
          <WalletMenuPanel id={menuId} linked={linked} wallet={wallet} state={state} onClose={close} />
        </Suspense>
      ) : null}
    </div>
  );
}
