import type { i18n as I18n } from 'i18next';
import type { ShellBus } from '@app/ui';
import { ApiError, SUPPORTED_CHAIN_ID, type BusCommand, type RemoteWallet, type SessionUser, type TypedDataRequest } from '@app/contracts';
import type { SessionService } from '../session/session';
import { withLocale } from '../locale/locale';
import { isUserRejection, shouldPromptWalletBrowser, startProviderDiscovery, type Eip1193Provider } from './discovery';

/** Spec §9: the delay before the mismatch error shows. */
export const MISMATCH_ERROR_DELAY_MS = 100;
export const SIWE_STATEMENT = 'Sign in with your wallet.';

const chainOps = () => import(/* webpackChunkName: "wallet" */ './chainOps');

export interface WalletDeps {
  bus: ShellBus;
  session: SessionService;
  i18n: I18n;
  openWalletPrompt(): void;
}

/**
 * The shell's wallet: discovery, connect, listeners, balances, the supported-network check,
 * linking the wallet to the account, and sign-in with the wallet. Its state goes out on the bus.
 */
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

export function createWalletService({ bus, session, i18n, openWalletPrompt }: WalletDeps) {
  const discovery = startProviderDiscovery();
  let provider: Eip1193Provider | null = null;
  let listening = false;
  let reconciling = false;
  /** A wallet replacement is under way: the newly picked account is not a mismatch. */
  let replacing = false;
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

  async function siwe(address: string) {
    const nonce = await session.api.call('siweNonce');
    const { signInWithEthereum } = await chainOps();
    return signInWithEthereum(provider!, {
      address,
      chainId: bus.wallet.getValue().chainId ?? SUPPORTED_CHAIN_ID,
      nonce: nonce.nonce,
      issuedAt: nonce.issuedAt,
      expiresAt: nonce.expiresAt,
      // EIP-4361 allows only ASCII in the statement, so it is not translated.
      statement: SIWE_STATEMENT,
    });
  }

  /** Spec §4: a login asked for before connecting happens after the connect. */
  async function signInWithWallet(invite?: string, source?: string) {
    if (!bus.wallet.getValue().connected && !(await connect())) return;
    const address = bus.wallet.getValue().account!;
    try {
      const proof = await siwe(address);
      const { checksum } = await chainOps();
      const auth = await session.api.call('loginV2', { body: { metaMaskAddress: checksum(address), invite, source, ...proof } });
      navigate(auth.user.role ? '/cabinet/dashboard' : '/registration-confirm');
    } catch (error) {
      if (isUserRejection(error)) notify('warning', t('wallet.rejected'));
      else notify('error', error instanceof ApiError ? error.message : t('wallet.signInFailed'), t('notifications.error'));
    }
  }

  /** Spec §4, wallet linking: link a wallet to an account without one; refuse a different one. */
  async function reconcile(account: string, user: { id: string | number; metaMaskAddress?: string | null }) {
    // One at a time: a connect click and the account stream may both ask at once.
    if (reconciling || replacing) return;
    reconciling = true;
    try {
      const linked = user.metaMaskAddress?.toLowerCase();
      if (linked && linked !== account) {
        await session.logout({ silent: true });
        setTimeout(() => notify('error', t('wallet.metamask_invalid'), t('notifications.error')), MISMATCH_ERROR_DELAY_MS);
        return;
      }
      if (linked) return;
      try {
        const proof = await siwe(account);
        const { checksum } = await chainOps();
        const result = await session.api.call('connectMm', { body: { id: String(user.id), metaMaskAddress: checksum(account), ...proof } });
        session.setUser(result.user);
        notify('success', t('wallet.metamask_linked'));
      } catch (error) {
        // The person declined to sign: nothing changes. An account that holds money links its
        // first wallet only with the owner's proof, in the settings: say so, and stay signed in.
        // Any other failure ends the session quietly.
        if (isUserRejection(error)) notify('warning', t('wallet.rejected'));
        else if (error instanceof ApiError && error.code === 'OWNER_PROOF_REQUIRED') notify('warning', t('wallet.linkInSettings'));
        else await session.logout({ silent: true });
      }
    } finally {
      reconciling = false;
    }
  }

  // Whenever the connected account or the signed-in user changes, check that they belong together.
  type Pair = { account: string; user: SessionUser };
  let lastPair: Pair | null = null;
  const samePair = (a: Pair | null, b: Pair | null) => a?.account === b?.account && a?.user.id === b?.user.id && a?.user.metaMaskAddress === b?.user.metaMaskAddress;
  const checkPair = () => {
    const wallet = bus.wallet.getValue();
    const s = bus.session.getValue();
    const pair = wallet.connected && wallet.account && s.status === 'authenticated' ? { account: wallet.account, user: s.user } : null;
    if (samePair(pair, lastPair)) return;
    lastPair = pair;
    if (pair) void reconcile(pair.account, pair.user);
  };
  bus.wallet.subscribe(checkPair);
  bus.session.subscribe(checkPair);

  function handleCommand(command: BusCommand) {
    if (command.type === 'wallet/connect') {
      // Connecting again after a declined link signature must offer the link again; the
      // account-change stream alone would not, since nothing about the pair changed.
      void connect().then((connected) => {
        const s = bus.session.getValue();
        const account = bus.wallet.getValue().account;
        if (connected && account && s.status === 'authenticated') void reconcile(account, s.user);
      });
    }
    else if (command.type === 'session/wallet-sign-in') void signInWithWallet(command.invite, command.source);
  }
  bus.commands$.subscribe(handleCommand);

  async function connected(): Promise<{ provider: Eip1193Provider; account: string }> {
    if (!bus.wallet.getValue().connected && !(await connect())) throw new Error('Metamask not connection');
    const account = bus.wallet.getValue().account;
    if (!provider || !account) throw new Error('Metamask not connection');
    return { provider, account };
  }

  /** EIP-712 (eth_signTypedData_v4): the domain type is derived from the fields the domain has. */
  async function signTypedData(request: TypedDataRequest) {
    const { provider: p, account } = await connected();
    const domainFields = [
      ['name', 'string'],
      ['version', 'string'],
      ['chainId', 'uint256'],
      ['verifyingContract', 'address'],
    ].filter(([field]) => (request.domain as Record<string, unknown>)[field!] !== undefined);
    const typed = {
      types: { EIP712Domain: domainFields.map(([name, type]) => ({ name: name!, type: type! })), ...request.types },
      domain: request.domain,
      primaryType: request.primaryType,
      message: request.message,
    };
    const signature = (await p.request({ method: 'eth_signTypedData_v4', params: [account, JSON.stringify(typed)] })) as string;
    const { checksum } = await chainOps();
    return { address: checksum(account), signature };
  }

  /**
   * The person picks the wallet to link instead (the wallet's account picker, where it has one)
   * and signs an EIP-4361 message with it. Meanwhile the new
   * account is not treated as a mismatch (`send` passes the proof to the server); on success the user is read again, and the pair matches.
   */
  async function proveNewWallet(send: (proof: { address: string; message: string; signature: string }) => Promise<void>) {
    const { provider: p } = await connected();
    replacing = true;
    try {
      try {
        await p.request({ method: 'wallet_requestPermissions', params: [{ eth_accounts: {} }] });
      } catch (error) {
        // A wallet without the picker keeps the account chosen in it; a refusal stops here.
        if (isUserRejection(error)) throw error;
      }
      const accounts = (await p.request({ method: 'eth_accounts' })) as string[];
      const account = accounts[0]?.toLowerCase();
      if (!account) throw new Error('Metamask not connection');
      if (account !== bus.wallet.getValue().account) setWallet({ account });
      const proof = await siwe(account);
      const { checksum } = await chainOps();
      await send({ address: checksum(account), ...proof });
      await session.reloadUser();
    } finally {
      replacing = false;
    }
  }

  /** The wallet as remotes may use it (parcel props). */
  const forRemotes: RemoteWallet = {
    sendTransfer: async (transfer) => {
      const { chainId } = bus.wallet.getValue();
      if (!provider || !bus.wallet.getValue().connected || chainId === null) throw new Error('Metamask not connection');
      const { sendTransfer } = await chainOps();
      const sent = await sendTransfer(provider, chainId, transfer);
      void refreshBalances();
      return sent;
    },
    waitForConfirmations: async (hash, confirmations) => {
      const { chainId } = bus.wallet.getValue();
      if (!provider || chainId === null) throw new Error('Metamask not connection');
      const { waitForConfirmations } = await chainOps();
      await waitForConfirmations(provider, chainId, hash, confirmations);
      void refreshBalances();
    },
    refreshBalances,
    signTypedData,
    proveNewWallet,
  };

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

  return { connect, reconnect, switchNetwork, refreshBalances, disconnect, forRemotes, handleCommand };
}

export type WalletService = Omit<ReturnType<typeof createWalletService>, 'handleCommand'>;
