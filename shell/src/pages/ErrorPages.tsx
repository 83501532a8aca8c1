import { Component, type ReactNode } from 'react';
import { useTranslation } from '@app/singletons/react-i18n';
import { LocaleLink } from '../layout/LocaleLink';
import { isChunkLoadError, reloadForChunkError } from '../remotes/chunkReload';

/** An unknown path (spec §2). */
export function NotFoundPage() {
  const { t } = useTranslation('shell');
  return (
    <section className="error-page" aria-labelledby="error-title">
      <p className="error-page__code">404</p>
      <h1 id="error-title">{t('errors.notFound')}</h1>
      <LocaleLink to="/cabinet/dashboard" className="btn btn--primary">
        {t('errors.toDashboard')}
      </LocaleLink>
    </section>
  );
}

/** A route-level error: its status (or 500) and message. */
export function RouteErrorPage({ error }: { error: unknown }) {
  const { t } = useTranslation('shell');
  const carried = (error as { status?: unknown } | null)?.status;
  const status = typeof carried === 'number' && carried >= 400 && carried < 600 ? carried : 500;
  const message = error instanceof Error ? error.message : String(error ?? '');
  return (
    <LastResort>
      <section className="error-page" aria-labelledby="error-title">
        <p className="error-page__code">{t('errors.status', { status })}</p>
        <h1 id="error-title">{t('errors.oops')}</h1>
        {message ? <p className="error-page__message">{message}</p> : null}
        <a href="/cabinet/dashboard" className="btn btn--primary">
          {t('errors.toDashboard')}
        </a>
      </section>
    </LastResort>
  );
}

type BoundaryState = { error: unknown; failedAt: string | null };

/**
 * Shows the route error page when a page or layout throws, until the user goes to another
 * path (the header and sidebar of the new page render again).
 */
export class RouteErrorBoundary extends Component<{ pathname: string; children: ReactNode }, BoundaryState> {
  override state: BoundaryState = { error: undefined, failedAt: null };
  static getDerivedStateFromError(error: unknown): Partial<BoundaryState> {
    return { error: error ?? new Error('') , failedAt: null };
  }
  static getDerivedStateFromProps(props: { pathname: string }, state: BoundaryState): Partial<BoundaryState> | null {
    if (state.error === undefined) return null;
    if (state.failedAt === null) return { failedAt: props.pathname };
    return state.failedAt === props.pathname ? null : { error: undefined, failedAt: null };
  }
  override componentDidCatch(error: unknown) {
    // A lazily loaded layout or page that failed to download: a new deployment, most likely.
    if (isChunkLoadError(error)) reloadForChunkError();
  }
  override render() {
    return this.state.error === undefined ? this.props.children : <RouteErrorPage error={this.state.error} />;
  }
}

/**
 * When the error page itself fails, plain text and a link home: nothing here may depend on
 * i18n, the router or the bus, since any of them may be what broke.
 */
export class LastResort extends Component<{ children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };
  static getDerivedStateFromError() {
    return { failed: true };
  }
  override render() {
    if (!this.state.failed) return this.props.children;
    const ru = location.pathname.startsWith('/ru');
    return (
      <main className="error-page" id="main">
        <h1>{ru ? 'При показе страницы ошибки произошла ошибка' : 'An error occurred while showing the error page'}</h1>
        <a href={ru ? '/ru' : '/'}>{ru ? 'На главную' : 'Go home'}</a>
      </main>
    );
  }
}
