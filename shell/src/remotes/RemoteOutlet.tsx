import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from '@app/singletons/react-i18n';
import { mountRootParcel, type Parcel } from 'single-spa';
import { CONTRACT_VERSION, type RemoteEntry, type RemoteModule, type RemoteProps } from '@app/contracts';
import { useShell } from '../app/ShellContext';
import { LOCALE_PREFIX } from '../locale/locale';
import { useObservable } from '@app/ui';
import { RemoteLoadError, loadRemoteApp, takeWarmedRemote } from './loader';
import { isChunkLoadError, reloadForChunkError } from './chunkReload';
import { afterMinimumDelay } from './minimumDelay';

// The page's first remote replaces the loading line the server's frame has shown since the
// first paint (time 0 on the page's clock); later ones, the line shown when they start.
let firstOfPage = true;

type OutletState =
  | { status: 'loading' }
  | { status: 'ready'; module: RemoteModule }
  | { status: 'failed'; reason: 'unavailable' | 'incompatible' | 'crashed'; detail: string };

/**
 * Mounts the remote that owns the current route as a single-spa parcel. Whatever goes wrong
 * with the remote (its server down, a bad build, a contract mismatch, a render error) ends in
 * the same panel with a Retry button, and never reaches the header, sidebar or navigation.
 */
export function RemoteOutlet({ remote }: { remote: RemoteEntry }) {
  const { bus, i18n, translations, session, wallet } = useShell();
  const { t } = useTranslation('shell');
  const locale = useObservable(bus.locale, bus.locale.getValue());
  const [state, setState] = useState<OutletState>({ status: 'loading' });
  const [attempt, setAttempt] = useState(0);
  const hostRef = useRef<HTMLDivElement>(null);
  const parcelRef = useRef<Parcel | null>(null);

  const fail = useCallback((reason: 'unavailable' | 'incompatible' | 'crashed', detail: string) => {
    setState({ status: 'failed', reason, detail });
  }, []);

  useEffect(() => {
    let cancelled = false;
    setState({ status: 'loading' });
    const shownAt = firstOfPage ? 0 : performance.now();
    firstOfPage = false;
    afterMinimumDelay(takeWarmedRemote(remote.name) ?? loadRemoteApp(remote, CONTRACT_VERSION), shownAt).then(
      (module) => !cancelled && setState({ status: 'ready', module }),
      (error: unknown) => {
        if (cancelled) return;
        if (isChunkLoadError(error) && reloadForChunkError()) return;
        if (error instanceof RemoteLoadError) fail(error.failure.reason, error.failure.detail);
        else fail('unavailable', String(error));
      },
    );
    return () => {
      cancelled = true;
    };
  }, [remote, attempt, fail]);

  const basename = LOCALE_PREFIX[locale];
  useEffect(() => {
    if (state.status !== 'ready' || !hostRef.current) return;
    // A fresh element per mount: an unmount still finishing never races the next mount.
    const domElement = document.createElement('div');
    domElement.className = 'remote-root';
    hostRef.current.appendChild(domElement);
    const props: Omit<RemoteProps, 'domElement'> & { domElement: HTMLElement } = {
      bus: bus.remoteView,
      basename,
      i18n,
      translations,
      api: session.api,
      wallet: wallet.forRemotes,
      contractVersion: CONTRACT_VERSION,
      domElement,
      onRemoteError: (error) => {
        if (isChunkLoadError(error) && reloadForChunkError()) return;
        fail('crashed', String((error as Error)?.message ?? error));
      },
    };
    const parcel = mountRootParcel({ ...state.module, name: remote.name } as never, props as never);
    parcelRef.current = parcel;
    parcel.mountPromise.catch((error: unknown) => fail('crashed', String((error as Error)?.message ?? error)));
    return () => {
      parcelRef.current = null;
      const finished = parcel.getStatus() === 'MOUNTED' ? parcel.unmount() : parcel.mountPromise.then(() => parcel.unmount());
      Promise.resolve(finished).catch(() => undefined).finally(() => domElement.remove());
    };
  }, [state, remote.name, bus, i18n, translations, session, wallet, basename, fail]);

  if (state.status === 'failed') {
    return (
      <section className="remote-fallback" role="alert" aria-labelledby="remote-fallback-title">
        <h1 id="remote-fallback-title">{t('remote.unavailableTitle')}</h1>
        <p>{t(state.reason === 'incompatible' ? 'remote.incompatible' : state.reason === 'crashed' ? 'remote.crashed' : 'remote.unavailable')}</p>
        <p className="remote-fallback__detail">{state.detail}</p>
        <button type="button" className="btn btn--primary" onClick={() => setAttempt((n) => n + 1)}>
          {t('remote.retry')}
        </button>
      </section>
    );
  }
  return (
    <div ref={hostRef} className="remote-host" data-remote={remote.name} aria-busy={state.status === 'loading'}>
      {state.status === 'loading' ? <p className="remote-loading">{t('remote.loading')}</p> : null}
    </div>
  );
}
