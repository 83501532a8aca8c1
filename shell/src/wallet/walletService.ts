import type { i18n as I18n } from 'i18next';
import type { ShellBus } from '@app/ui';
import type { SessionService } from '../session/session';
import { createAccountLink } from './accountLink';
import { createWalletConnection } from './connection';
import { createRemoteWallet } from './forRemotes';

export { MISMATCH_ERROR_DELAY_MS, SIWE_STATEMENT } from './accountLink';
export { WALLET_AUTHORISED_KEY } from './connection';

export interface WalletDeps {
  bus: ShellBus;
  session: SessionService;
  i18n: I18n;
  openWalletPrompt(): void;
}

/**
 * The shell's wallet, in three parts: the connection (connection.ts), the wallet and the account
 * (accountLink.ts), and what remotes use (forRemotes.ts). Its state goes out on the bus.
 */
export function createWalletService({ bus, session, i18n, openWalletPrompt }: WalletDeps) {
  const connection = createWalletConnection({ bus, i18n, openWalletPrompt });
  const link = createAccountLink({ bus, session, connection });
  const { connect, reconnect, switchNetwork, refreshBalances, disconnect } = connection;
  return { connect, reconnect, switchNetwork, refreshBalances, disconnect, forRemotes: createRemoteWallet({ bus, connection, link }), handleCommand: link.handleCommand };
}

export type WalletService = Omit<ReturnType<typeof createWalletService>, 'handleCommand'>;
