import type { BusCommand, RemoteWallet } from '@app/contracts';
import type { WalletDeps, WalletService } from './walletService';

/** The commands the wallet service answers; the first of them brings the service in. */
const WALLET_COMMANDS: ReadonlySet<BusCommand['type']> = new Set(['wallet/connect', 'session/wallet-sign-in']);

/**
 * The wallet service, fetched the first time a wallet matters: a connect or wallet sign-in
 * command, or a call from a page. Until then nothing is connected, so a visitor who never
 * touches a wallet does not download the code. Commands that arrive while it loads are kept
 * and answered in order.
 */
// The key the wallet service writes (kept here as text so this file does not import the service).
const wasAuthorised = () => {
  try {
    return localStorage.getItem('wallet.authorised') === '1';
  } catch {
    return false;
  }
};

export function createLazyWalletService(deps: WalletDeps): WalletService {
  let service: Promise<ReturnType<typeof import('./walletService').createWalletService>> | undefined;
  let ready = false;
  const pending: BusCommand[] = [];

  const load = () =>
    (service ??= import(/* webpackChunkName: "wallet-service" */ './walletService').then(
      ({ createWalletService }) => {
        const created = createWalletService(deps);
        ready = true;
        for (const command of pending.splice(0)) created.handleCommand(command);
        return created;
      },
      (error: unknown) => {
        service = undefined; // the next wallet action tries again
        pending.length = 0;
        throw error;
      },
    ));

  deps.bus.commands$.subscribe((command) => {
    if (ready || !WALLET_COMMANDS.has(command.type)) return;
    pending.push(command);
    load().catch(() => deps.bus.send({ type: 'notify', notification: { kind: 'error', message: deps.i18n.t('wallet.connectFailed', { ns: 'shell' }) } }));
  });

  // A wallet connected on an earlier visit reconnects without a prompt; a first visit loads nothing.
  if (wasAuthorised()) void load().then((w) => w.reconnect(), () => undefined);

  const forRemotes: RemoteWallet = {
    sendTransfer: async (transfer) => (await load()).forRemotes.sendTransfer(transfer),
    waitForConfirmations: async (hash, confirmations) => (await load()).forRemotes.waitForConfirmations(hash, confirmations),
    refreshBalances: async () => (await load()).forRemotes.refreshBalances(),
    signTypedData: async (request) => (await load()).forRemotes.signTypedData!(request),
    proveNewWallet: async (send) => (await load()).forRemotes.proveNewWallet!(send),
  };
  return {
    connect: async () => (await load()).connect(),
    reconnect: async () => (await load()).reconnect(),
    switchNetwork: async () => (await load()).switchNetwork(),
    refreshBalances: async () => (await load()).refreshBalances(),
    disconnect: async () => (await load()).disconnect(),
    forRemotes,
  };
}
