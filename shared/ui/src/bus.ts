import { BehaviorSubject, Subject, type Observable } from '@app/singletons/rx';
import {
  loadBusCommandSchema,
  retryingOnce,
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
  /**
   * Checks a command and passes it on. Once the commands' schema is in (see checksReady), a
   * malformed one throws here; one sent before waits for the schema, in order, and a malformed
   * one is then reported and dropped.
   */
  send(command: BusCommand): void;
  /** Settles once commands are checked as they are sent. */
  checksReady(): Promise<void>;
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

  // A command comes from code the shell did not build: check it before anyone acts on it. The
  // schema (and zod) is not part of a page's start-up; commands sent before it is in wait for it.
  let check: ((command: unknown) => BusCommand) | undefined;
  const waiting: unknown[] = [];
  // A failed load is asked again by the next command (the waiting ones go with it).
  const load = retryingOnce(() =>
    loadBusCommandSchema().then((schema) => {
      check = (command) => {
        const parsed = schema.safeParse(command);
        if (!parsed.success) throw new Error(`Refused bus command: ${parsed.error.message}`);
        return parsed.data;
      };
      // One at a time: a command sent while these are handed on queues behind them.
      while (waiting.length > 0) {
        try {
          commands.next(check(waiting.shift()));
        } catch (error) {
          console.error(error);
        }
      }
    }),
  );
  const send = (command: BusCommand) => {
    if (check && waiting.length === 0) {
      commands.next(check(command));
      return;
    }
    waiting.push(command);
    load().catch((error: unknown) => console.error(error));
  };

  return {
    session,
    wallet,
    theme,
    locale,
    route,
    commands$: commands.asObservable(),
    send,
    checksReady: load,
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
