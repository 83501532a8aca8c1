import type { i18n as I18n } from 'i18next';

/** The site cannot start without a valid runtime manifest: say so clearly, never a blank page. */
export function StartupErrorPage({ i18n, kind, detail }: { i18n: I18n; kind: 'malformed' | 'unreachable'; detail: string }) {
  const t = i18n.getFixedT(null, 'shell');
  return (
    <main className="error-page" id="main">
      <h1>{t('errors.manifestTitle')}</h1>
      <p>{t(kind === 'malformed' ? 'errors.manifestMalformed' : 'errors.manifestUnreachable')}</p>
      <pre className="error-page__detail">{detail}</pre>
      <button type="button" className="btn btn--primary" onClick={() => location.reload()}>
        {t('errors.reload')}
      </button>
    </main>
  );
}
