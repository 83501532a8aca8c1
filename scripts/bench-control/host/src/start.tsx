import { useEffect, useRef, useSyncExternalStore } from 'react';
import { createRoot } from 'react-dom/client';
import { Route, Router, Routes, createBrowserHistory, type Location } from '@app/singletons/router';
import { loadRemote, registerRemotes } from '@module-federation/enhanced/runtime';
import { mountRootParcel, type ParcelConfig } from 'single-spa';

const history = createBrowserHistory({ v5Compat: true });
let location: Location = history.location;
const listeners = new Set<() => void>();
history.listen(({ location: next }) => {
  location = next;
  listeners.forEach((l) => l());
});

function Remote() {
  const host = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const entries = JSON.parse(document.getElementById('remote-entries')?.textContent ?? '{}') as Record<string, string>;
    registerRemotes([{ name: 'control_remote', entry: entries.control_remote! }]);
    let unmount: (() => Promise<unknown>) | undefined;
    void loadRemote<ParcelConfig>('control_remote/app').then((config) => {
      if (!config || !host.current) return;
      const parcel = mountRootParcel(config, { domElement: host.current });
      unmount = () => parcel.unmount();
    });
    return () => void unmount?.();
  }, []);
  return <div ref={host} />;
}

function App() {
  const current = useSyncExternalStore(
    (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    () => location,
  );
  return (
    <Router location={current} navigator={history}>
      <Routes>
        <Route path="*" element={<Remote />} />
      </Routes>
    </Router>
  );
}

export function start() {
  createRoot(document.getElementById('root')!).render(<App />);
}
