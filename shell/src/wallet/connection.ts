import type { i18n as I18n } from 'i18next';
import type { ShellBus } from '@app/ui';
import { SUPPORTED_CHAIN_ID } from '@app/contracts';
import { withLocale } from '../locale/locale';
import { isUserRejection, shouldPromptWalletBrowser, startProviderDiscovery, type Eip1193Provider } from './discovery';

export const chainOps = () => import(/* webpackChunkName: "wallet" */ './chainOps');

/** Set when a wallet connected here, so the next load reconnects it silently; cleared when it disconnects. */
export const WALLET_AUTHORISED_KEY = 'wallet.authorised';
function rememberAuthorised(yes: boolean) {
  try {
    if (yes) localStorage.setItem(WALLET_AUTHORISED_KEY, '1');
    else localStorage.removeItem(WALLET_AUTHORISED_KEY);
  } catch {
    // Storage refused (private mode): the person clicks Connect after a reload, as before.
  }
}

export interface ConnectionDeps {
  bus: ShellBus;
  i18n: I18n;
  openWalletPrompt(): void;
}

/**
 * The wallet's connection: discovery, connect and silent reconnect, the wallet's listeners,
 * balances and the supported-network check. Its state goes out on the bus (`bus.wallet`).
 */
export function createWalletConnection({ bus, i18n, openWalletPrompt }: ConnectionDeps) {
  const discovery = startProviderDiscovery();
  let provider: Eip1193Provider | null = null;
  let listening = false;
  const t = (key: string, options?: Record<string, unknown>) => i18n.t(key, { ns: 'shell', ...options });
  const notify = (kind: 'success' | 'error' | 'warning' | 'info', message: string, title?: string) =>
    bus.send({ type: 'notify', notification: { kind, message, ...(title ? { title } : {}) } });
  const navigate = (path: string) => bus.send({ type: 'navigate', to: withLocale(path, bus.locale.getValue()) });

  const setWallet = (patch: Partial<ReturnType<typeof bus.wallet.getValue>>) => bus.wallet.next({ ...bus.wallet.getValue(), ...patch });

  async function refreshBalances() {
    const { account, chainId } = bus.wallet.getValue();
    if (!provider || !account || chainId === null) return;
    try {
      const { readWalletBalances } = await chainOps();
      setWallet({ balances: await readWalletBalances(provider, account, chainId) });
    } catch {
      setWallet({ balances: {} });
    }
  }

  function checkNetwork(chainId: number) {
    if (chainId !== SUPPORTED_CHAIN_ID) notify('warning', t('wallet.unsupportedNetwork', { id: chainId }));
  }

  const onAccountsChanged = (...args: unknown[]) => {
    const accounts = (args[0] as string[] | undefined) ?? [];
    if (!accounts.length) {
      rememberAuthorised(false);
      setWallet({ connected: false, account: null, balances: {} });
      return;
    }
    setWallet({ account: accounts[0]!.toLowerCase(), connected: true });
    void refreshBalances();
  };
  const onChainChanged = (...args: unknown[]) => {
    const chainId = Number.parseInt(String(args[0]), 16);
    setWallet({ chainId });
    checkNetwork(chainId);
    void refreshBalances();
  };

  function attach(accounts: string[], chainId: number) {
    if (!listening && provider?.on) {
      provider.on('accountsChanged', onAccountsChanged);
      provider.on('chainChanged', onChainChanged);
      listening = true;
    }
    rememberAuthorised(true);
    setWallet({ connected: true, account: accounts[0]!.toLowerCase(), chainId });
    checkNetwork(chainId);
    void refreshBalances();
  }

  async function connect(): Promise<boolean> {
    provider = discovery.pick();
    if (!provider) {
      if (shouldPromptWalletBrowser()) openWalletPrompt();
      else notify('warning', t('wallet.noProvider'));
      return false;
    }
    try {
      const accounts = (await provider.request({ method: 'eth_requestAccounts' })) as string[];
      const chainId = Number.parseInt(String(await provider.request({ method: 'eth_chainId' })), 16);
      if (!accounts.length) return false;
      attach(accounts, chainId);
      return true;
    } catch (error) {
      notify('warning', isUserRejection(error) ? t('wallet.rejected') : t('wallet.connectFailed'));
      return false;
    }
  }

  /** After a reload: a wallet that already authorised the site answers eth_accounts without a prompt. */
  async function reconnect(): Promise<boolean> {
    if (bus.wallet.getValue().connected) return true;
    provider = discovery.pick();
    if (!provider) return false;
    try {
      const accounts = (await provider.request({ method: 'eth_accounts' })) as string[];
      if (!accounts.length) {
        rememberAuthorised(false);
        return false;
      }
      attach(accounts, Number.parseInt(String(await provider.request({ method: 'eth_chainId' })), 16));
      return true;
    } catch {
      return false;
    }
  }

  async function switchNetwork() {
    if (!provider) return;
    try {
      await provider.request({ method: 'wallet_switchEthereumChain', params: [{ chainId: '0x1' }] });
    } catch (error) {
      notify('warning', isUserRejection(error) ? t('wallet.rejected') : t('wallet.switchFailed'));
    }
  }

  /** The connected wallet, connecting first if it is not. */
  async function connected(): Promise<{ provider: Eip1193Provider; account: string }> {
    if (!bus.wallet.getValue().connected && !(await connect())) throw new Error('Metamask not connection');
    const account = bus.wallet.getValue().account;
    if (!provider || !account) throw new Error('Metamask not connection');
    return { provider, account };
  }

  /**
   * Forgets the wallet in this browser: no silent reconnect on the next load, and the wallet is asked
   * to drop the site's permission where it can (EIP-2255). The account keeps its linked wallet.
   */
  async function disconnect() {
    rememberAuthorised(false);
    const was = provider;
    if (was?.removeListener && listening) {
      was.removeListener('accountsChanged', onAccountsChanged);
      was.removeListener('chainChanged', onChainChanged);
    }
    listening = false;
    provider = null;
    setWallet({ connected: false, account: null, chainId: null, balances: {} });
    try {
      await was?.request({ method: 'wallet_revokePermissions', params: [{ eth_accounts: {} }] });
    } catch {
      // A wallet without EIP-2255 keeps its permission; the site no longer uses it until Connect.
    }
  }

  return {
    connect,
    reconnect,
    switchNetwork,
    refreshBalances,
    disconnect,
    connected,
    /** The provider picked last, if any. */
    provider: () => provider,
    setWallet,
    t,
    notify,
    navigate,
  };
}

export type WalletConnection = ReturnType<typeof createWalletConnection>;
