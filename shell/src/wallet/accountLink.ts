import type { ShellBus } from '@app/ui';
import { ApiError, SUPPORTED_CHAIN_ID, type BusCommand, type SessionUser } from '@app/contracts';
import type { SessionService } from '../session/session';
import { isUserRejection } from './discovery';
import { chainOps, type WalletConnection } from './connection';

/** Spec §9: the delay before the mismatch error shows. */
export const MISMATCH_ERROR_DELAY_MS = 100;
export const SIWE_STATEMENT = 'Sign in with your wallet.';

export interface AccountLinkDeps {
  bus: ShellBus;
  session: SessionService;
  connection: WalletConnection;
}

/**
 * The wallet and the account: sign-in with the wallet (EIP-4361), linking a first wallet,
 * refusing a wallet other than the linked one, and proving a new wallet to replace it.
 */
export function createAccountLink({ bus, session, connection }: AccountLinkDeps) {
  const { t, notify, navigate, setWallet, connect } = connection;
  let reconciling = false;
  /** A wallet replacement is under way: the newly picked account is not a mismatch. */
  let replacing = false;

  async function siwe(address: string) {
    const nonce = await session.api.call('siweNonce');
    const { signInWithEthereum } = await chainOps();
    return signInWithEthereum(connection.provider()!, {
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

  /**
   * The person picks the wallet to link instead (the wallet's account picker, where it has one)
   * and signs an EIP-4361 message with it. Meanwhile the new account is not treated as a mismatch
   * (`send` passes the proof to the server); on success the user is read again, and the pair matches.
   */
  async function proveNewWallet(send: (proof: { address: string; message: string; signature: string }) => Promise<void>) {
    const { provider: p } = await connection.connected();
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

  return { handleCommand, proveNewWallet };
}

export type AccountLink = ReturnType<typeof createAccountLink>;
