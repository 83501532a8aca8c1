import type { ReactNode } from 'react';
import type { Loadable } from '../live';

export type PanelTexts = { loading: string; failed(message: string): string; retry: string };

/** A page section fed by the server: a skeleton while loading, an error with Retry, else its content. Never blank. */
export function Panel<T>({ id, title, state, onRetry, texts, head, children }: { id: string; title: string; state: Loadable<T>; onRetry(): void; texts: PanelTexts; head?: ReactNode; children(data: T): ReactNode }) {
  return (
    <section className="section" aria-labelledby={`${id}-title`} aria-busy={state.status === 'loading'} data-testid={id}>
      <div className="section__head">
        <h2 id={`${id}-title`}>{title}</h2>
        {head}
      </div>
      {state.status === 'loading' ? (
        <div role="status" aria-label={texts.loading}>
          <div className="skeleton" style={{ height: 24, marginBottom: 8 }} />
          <div className="skeleton" style={{ height: 24, width: '60%' }} />
        </div>
      ) : state.status === 'error' ? (
        <div className="alert alert--error" role="alert">
          {texts.failed(state.message)}{' '}
          <button type="button" className="btn btn--link" onClick={onRetry}>
            {texts.retry}
          </button>
        </div>
      ) : (
        children(state.data)
      )}
    </section>
  );
}
