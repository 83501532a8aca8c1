import type { ReactNode } from 'react';


/** A remote page: its heading, and a badge when the build carries a label (e.g. a canary). */
export function Page({ title, children }: { title: string; children?: ReactNode }) {
  const label = typeof __BUILD_LABEL__ === 'string' ? __BUILD_LABEL__ : '';
  return (
    <section className="page" aria-labelledby="page-title">
      <h1 id="page-title" className="page__title">
        {title}
        {label ? <span className="page__badge"> {label}</span> : null}
      </h1>
      {children}
    </section>
  );
}
