import { useCallback } from 'react';
import { useTranslation } from '@app/singletons/react-i18n';
import { translateMessage } from '@app/contracts';

// The API client's errors cross the remote boundary as the shell's objects: recognised by shape.
export type ApiFailure = { status: number; message: string; fields: Record<string, string> };

export function apiFailure(error: unknown): ApiFailure | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const e = error as { name?: unknown; status?: unknown; message?: unknown; fields?: unknown };
  if (e.name !== 'ApiError' || typeof e.status !== 'number' || typeof e.message !== 'string') return undefined;
  return { status: e.status, message: e.message, fields: typeof e.fields === 'object' && e.fields ? (e.fields as Record<string, string>) : {} };
}

/** A person declined in the wallet (EIP-1193 code 4001). */
export function isUserRejection(error: unknown): boolean {
  for (let e: unknown = error, depth = 0; e && typeof e === 'object' && depth < 4; depth++) {
    const { code, info, error: inner } = e as { code?: unknown; info?: { error?: unknown }; error?: unknown };
    if (code === 4001 || code === 'ACTION_REJECTED') return true;
    e = info?.error ?? inner;
  }
  return false;
}

/** The contracts' messages are the spec's English; this shows one in the page's language. */
export function useMessage(): (text: string) => string {
  const { i18n } = useTranslation();
  const lang = (i18n.resolvedLanguage ?? i18n.language) === 'ru' ? 'ru' : 'en';
  return useCallback((text: string) => translateMessage(text, lang), [lang]);
}
