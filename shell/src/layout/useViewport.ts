import { useEffect, useState } from 'react';

/** Spec §9: the mobile breakpoint, and the window-resize throttle. */
export const MOBILE_BREAKPOINT = 600;
export const RESIZE_THROTTLE_MS = 100;

export function isMobileDevice(nav: Navigator = navigator): boolean {
  const uaData = (nav as Navigator & { userAgentData?: { mobile?: boolean } }).userAgentData;
  return uaData?.mobile ?? /Android|iPhone|iPad|iPod|Mobi/i.test(nav.userAgent);
}

export function isNarrow(width: number): boolean {
  return width <= MOBILE_BREAKPOINT;
}

/** True on a phone, or when the window is 600 px or narrower. */
export function useCompactViewport(): boolean {
  const [compact, setCompact] = useState(() => isNarrow(window.innerWidth) || isMobileDevice());
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const onResize = () => {
      if (timer) return;
      timer = setTimeout(() => {
        timer = undefined;
        setCompact(isNarrow(window.innerWidth) || isMobileDevice());
      }, RESIZE_THROTTLE_MS);
    };
    window.addEventListener('resize', onResize);
    return () => {
      window.removeEventListener('resize', onResize);
      if (timer) clearTimeout(timer);
    };
  }, []);
  return compact;
}
