import React, { useMemo, type ComponentType, type ReactNode } from 'react';
import * as ReactDOMClient from 'react-dom/client';
import singleSpaReact from 'single-spa-react';
import { I18nextProvider } from '@app/singletons/react-i18n';
import { Provider as JotaiProvider, createStore } from 'jotai';
import { Router, type Navigator } from '@app/singletons/router';
import { CONTRACT_VERSION, type RemoteModule, type RemoteProps, type RouteState, type TranslationLoaders } from '@app/contracts';
import { useObservable } from '../useObservable';
import { RemoteContext } from './RemoteContext';

export interface RemoteDefinition {
  /** The i18next namespace the remote's strings live in. */
  namespace: string;
  /** One loader per language, e.g. `() => import('./i18n/ru.json')`: only the one in use is fetched. */
  translations: TranslationLoaders;
  App: ComponentType;
}

const emptyRoute: RouteState = { pathname: '/', search: '', hash: '', key: 'default' };

function toPath(to: Parameters<Navigator['push']>[0]): string {
  if (typeof to === 'string') return to;
  return `${to.pathname ?? ''}${to.search ?? ''}${to.hash ?? ''}`;
}

/**
 * The remote's router follows the shell's history: the location comes from the bus, and
 * navigation is a command to the shell. One history for the page, so back/forward, deep links
 * and links across remotes behave as in a single app.
 */
function BusRouter({ props, children }: { props: RemoteProps; children: ReactNode }) {
  const route = useObservable(props.bus.route$, emptyRoute);
  const navigator = useMemo<Navigator>(
    () => ({
      createHref: toPath,
      go: (delta) => props.bus.send({ type: 'history/go', delta }),
      push: (to, state) => props.bus.send({ type: 'navigate', to: toPath(to), state }),
      replace: (to, state) => props.bus.send({ type: 'navigate', to: toPath(to), state, replace: true }),
    }),
    [props.bus],
  );
  return (
    <Router basename={props.basename || '/'} location={route} navigator={navigator}>
      {children}
    </Router>
  );
}

function RemoteRoot({ definition, props }: { definition: RemoteDefinition; props: RemoteProps }) {
  // Jotai state is the remote's own: one store per mount, never shared with other remotes.
  const store = useMemo(() => createStore(), []);
  const { App } = definition;
  return (
    <RemoteContext.Provider value={props}>
      <I18nextProvider i18n={props.i18n} defaultNS={definition.namespace}>
        <JotaiProvider store={store}>
          <BusRouter props={props}>
            <App />
          </BusRouter>
        </JotaiProvider>
      </I18nextProvider>
    </RemoteContext.Provider>
  );
}

/** single-spa lifecycles for a remote, with its translations registered on bootstrap. */
export function createRemote(definition: RemoteDefinition): RemoteModule {
  const lifecycles = singleSpaReact<RemoteProps>({
    React,
    ReactDOMClient,
    rootComponent: (props: RemoteProps) => <RemoteRoot definition={definition} props={props} />,
    // A render error is the shell's to show: it replaces the remote with its fallback panel.
    errorBoundary: (error: Error, _info: unknown, props: RemoteProps) => {
      props.onRemoteError(error);
      return <></>;
    },
  });
  return {
    contractVersion: CONTRACT_VERSION,
    bootstrap: async (props) => {
      if (props.translations) await props.translations.register(definition.namespace, definition.translations);
      else {
        for (const [lng, load] of Object.entries(definition.translations)) {
          props.i18n.addResourceBundle(lng, definition.namespace, await load(), true, true);
        }
      }
      return lifecycles.bootstrap(props as never);
    },
    mount: (props) => lifecycles.mount(props as never),
    unmount: (props) => lifecycles.unmount(props as never),
    update: (props) => lifecycles.update!(props as never),
  };
}
