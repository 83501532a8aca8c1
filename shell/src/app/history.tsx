import { useSyncExternalStore, type ReactNode } from 'react';
import { Router, createBrowserHistory, type Location } from '@app/singletons/router';

/**
 * The one history of the page, driving a plain `<Router>`: the data router would add its loaders
 * and actions, which the shell does not use, to every first load.
 * `onLocation` runs before React hears of a new location, so the bus already carries the new
 * route when a remote mounts for it.
 */
export function createShellHistory(onLocation: (location: Location) => void) {
  // v5Compat: listeners hear pushes and replaces too, not only the back and forward buttons.
  const history = createBrowserHistory({ v5Compat: true });
  let current = { action: history.action, location: history.location };
  const renders = new Set<() => void>();
  history.listen(({ action, location }) => {
    current = { action, location };
    onLocation(location);
    for (const render of renders) render();
  });
  const subscribe = (render: () => void) => {
    renders.add(render);
    return () => renders.delete(render);
  };
  const snapshot = () => current;

  function ShellRouter({ children }: { children: ReactNode }) {
    const { action, location } = useSyncExternalStore(subscribe, snapshot);
    return (
      <Router location={location} navigationType={action} navigator={history}>
        {children}
      </Router>
    );
  }

  return {
    ShellRouter,
    location: () => current.location,
    navigate: (to: string, options: { replace?: boolean; state?: unknown } = {}) =>
      options.replace ? history.replace(to, options.state) : history.push(to, options.state),
    go: (delta: number) => history.go(delta),
  };
}
