import type { i18n as I18n } from 'i18next';
import type { Observable } from 'rxjs';
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

/**
 * The props the shell hands a remote's parcel. (single-spa reserves `name`, so it is not used.)
 */
export interface RemoteProps {
  bus: RemoteBus;
  /** '' for English, '/ru' for Russian: the remote's routes live under it. */
  basename: string;
  i18n: I18n;
  /** The API client with the session's token; answers that sign in update the session. */
  api: ApiClient;
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
