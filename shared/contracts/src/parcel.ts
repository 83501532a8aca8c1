import type { i18n as I18n } from 'i18next';
import type { Observable } from '@app/singletons/rx';
import type { ApiClient } from './client';
import type { BusCommand, Locale, RouteState, SessionState, ThemeState, WalletState } from './bus';

/** The bus as a remote sees it: current state as observables, and one way to ask for things. */
export interface RemoteBus {
  session$: Observable<SessionState>;
  wallet$: Observable<WalletState>;
  theme$: Observable<ThemeState>;
  locale$: Observable<Locale>;
  route$: Observable<RouteState>;
  /** Validated by the shell; an invalid command is refused with an error. */
  send(command: BusCommand): void;
}

/** A deposit transfer the wallet is asked to send (amount in base units, as a decimal string). */
export interface WalletTransfer {
  currency: 'ETH' | 'USDT' | 'USDC' | 'WAVES' | 'BUSD' | 'SOL' | 'BNB';
  /** The pool's receiving address for the currency. */
  to: string;
  units: string;
}

/**
 * What remotes may ask of the wallet. The shell holds the provider; a remote never touches it.
 * Errors: a rejection by the person has `code` 4001; others carry the wallet's message.
 */
export interface RemoteWallet {
  /** Sends the transfer (ETH natively, a token with transfer()), resolving with the hash. */
  sendTransfer(transfer: WalletTransfer): Promise<{ hash: string }>;
  /** Resolves when the transaction has this many confirmations. */
  waitForConfirmations(hash: string, confirmations: number): Promise<void>;
  refreshBalances(): Promise<void>;
  /**
   * Signs EIP-712 typed data with the connected account (eth_signTypedData_v4). Contract 1.1;
   * absent in older shells.
   */
  signTypedData?(request: TypedDataRequest): Promise<{ address: string; signature: string }>;
  /**
   * Proof that the person holds a wallet they pick now (an EIP-4361 message signed by it), for
   * replacing the linked wallet. While `send` runs (it sends the proof to the server), the shell
   * does not treat the new account as a mismatch; afterwards it reads the user again. Contract 1.1.
   */
  proveNewWallet?(send: (proof: WalletProof) => Promise<void>): Promise<void>;
}

/** EIP-712 typed data as eth_signTypedData_v4 takes it (without EIP712Domain in `types`). */
export interface TypedDataRequest {
  domain: { name: string; version: string; chainId?: number; verifyingContract?: string };
  types: Record<string, Array<{ name: string; type: string }>>;
  primaryType: string;
  message: Record<string, unknown>;
}

export interface WalletProof {
  /** Checksummed address of the wallet that signed. */
  address: string;
  message: string;
  signature: string;
}

/** Loads one language's strings of an i18next namespace (a JSON file fetched on demand). */
export type TranslationLoaders = Record<Locale, () => Promise<Record<string, unknown>>>;

/** Only the visitor's language is downloaded; the shell fetches another before switching to it. */
export interface RemoteTranslations {
  /** Registers a remote's namespace; resolves once the current language's strings are in. */
  register(namespace: string, loaders: TranslationLoaders): Promise<void>;
}

/**
 * The props the shell hands a remote's parcel. (single-spa reserves `name`, so it is not used.)
 */
export interface RemoteProps {
  bus: RemoteBus;
  /** '' for English, '/ru' for Russian: the remote's routes live under it. */
  basename: string;
  i18n: I18n;
  /** Absent in shells older than lazy translations: the remote then loads every language itself. */
  translations?: RemoteTranslations;
  /** The API client with the session's token; answers that sign in update the session. */
  api: ApiClient;
  wallet: RemoteWallet;
  contractVersion: string;
  /** The remote reports a render error here so the shell can show its fallback panel. */
  onRemoteError(error: unknown): void;
  domElement: HTMLElement;
}

/** What a remote's exposed './app' module exports. */
export interface RemoteModule {
  contractVersion: string;
  bootstrap(props: RemoteProps): Promise<unknown>;
  mount(props: RemoteProps): Promise<unknown>;
  unmount(props: RemoteProps): Promise<unknown>;
  update?(props: RemoteProps): Promise<unknown>;
}
