import { BehaviorSubject, Subject, type Observable } from '@app/singletons/rx';
import {
  busCommandSchema,
  type BusCommand,
  type Locale,
  type RemoteBus,
  type RouteState,
  type SessionState,
  type ThemeState,
  type WalletState,
} from '@app/contracts';

export interface BusState {
  session: SessionState;
  wallet: WalletState;
  theme: ThemeState;
  locale: Locale;
  route: RouteState;
}

/** The writer's side of the bus, held by the shell's services only. */
export interface ShellBus {
  session: BehaviorSubject<SessionState>;
  wallet: BehaviorSubject<WalletState>;
  theme: BehaviorSubject<ThemeState>;
  locale: BehaviorSubject<Locale>;
  route: BehaviorSubject<RouteState>;
  /** Commands that passed validation. */
  commands$: Observable<BusCommand>;
  send(command: BusCommand): void;
  /** The read-only view handed to remotes in their parcel props. */
  remoteView: RemoteBus;
}

export const disconnectedWallet: WalletState = { connected: false, chainId: null, account: null, balances: {} };

export function createBus(initial: BusState): ShellBus {
  const session = new BehaviorSubject(initial.session);
  const wallet = new BehaviorSubject(initial.wallet);
  const theme = new BehaviorSubject(initial.theme);
  const locale = new BehaviorSubject(initial.locale);
  const route = new BehaviorSubject(initial.route);
  const commands = new Subject<BusCommand>();

  // A command comes from code the shell did not build: check it before anyone acts on it.
  const send = (command: BusCommand) => {
    const parsed = busCommandSchema.safeParse(command);
    if (!parsed.success) throw new Error(`Refused bus command: ${parsed.error.message}`);
    commands.next(parsed.data);
  };

  return {
    session,
    wallet,
    theme,
    locale,
    route,
    commands$: commands.asObservable(),
    send,
    remoteView: {
      session$: session.asObservable(),
      wallet$: wallet.asObservable(),
      theme$: theme.asObservable(),
      locale$: locale.asObservable(),
      route$: route.asObservable(),
      send,
    },
  };
}

export function routeFromLocation(loc: { pathname: string; search: string; hash: string; state?: unknown; key?: string }): RouteState {
  return { pathname: loc.pathname, search: loc.search, hash: loc.hash, state: loc.state ?? null, key: loc.key ?? 'default' };
}
