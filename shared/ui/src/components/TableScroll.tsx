import type { ReactNode } from 'react';

/**
 * A table that may be wider than its box: it scrolls inside the box (never the page), with a shade
 * at the edge that has more to show, and takes the keyboard's focus so it can be scrolled by keys.
 */
export function TableScroll({ label, labelledBy, children }: { label?: string; labelledBy?: string; children: ReactNode }) {
  return (
    // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex
    <div className="table-scroll" tabIndex={0} role="region" aria-label={label} aria-labelledby={labelledBy}>
      {children}
    </div>
  );
}
