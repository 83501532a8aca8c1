import { Suspense, useEffect, useRef, useState, type ReactNode } from 'react';

/**
 * Renders its children once its place comes near the screen. The sections below the fold (balance
 * history, activity, F.A.Q.) are separate chunks, so they stay out of the dashboard's first load.
 */
export function Deferred({ name, children, minHeight = 160 }: { name: string; children: ReactNode; minHeight?: number }) {
  const box = useRef<HTMLDivElement>(null);
  const [near, setNear] = useState(typeof IntersectionObserver === 'undefined');
  useEffect(() => {
    const el = box.current;
    if (near || !el) return;
    const watch = new IntersectionObserver((entries) => entries.some((e) => e.isIntersecting) && setNear(true), { rootMargin: '200px' });
    watch.observe(el);
    return () => watch.disconnect();
  }, [near]);
  const placeholder = <div className="skeleton" style={{ minHeight }} />;
  return <div ref={box} data-testid={`deferred-${name}`}>{near ? <Suspense fallback={placeholder}>{children}</Suspense> : placeholder}</div>;
}
