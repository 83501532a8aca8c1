import { useCallback } from 'react';
import { useTranslation } from '@app/singletons/react-i18n';
import { translateMessage, type ApiError } from '@app/contracts';

export type Lang = 'en' | 'ru';

/** The page's language as the shell set it ('/ru' pages are Russian). */
export function useLang(): Lang {
  const { i18n } = useTranslation();
  return (i18n.resolvedLanguage ?? i18n.language) === 'ru' ? 'ru' : 'en';
}

/**
 * The schemas in @app/contracts speak the spec's English; this turns one of their messages (or
 * any catalogue message, with its {max}-style values) into the page's language. The server
 * already answers in the request's language, and a Russian text passes through unchanged.
 */
export function useMessage(): (text: string) => string {
  const lang = useLang();
  return useCallback((text: string) => translateMessage(text, lang), [lang]);
}

/**
 * The API client's error, recognised by shape: the client comes with the shell's bundle, so its
 * ApiError class is not this remote's copy and `instanceof` would say no.
 */
export function asApiError(error: unknown): Pick<ApiError, 'status' | 'message' | 'fields'> | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const e = error as Partial<ApiError>;
  if (e.name !== 'ApiError' || typeof e.status !== 'number' || typeof e.message !== 'string') return undefined;
  return { status: e.status, message: e.message, fields: typeof e.fields === 'object' && e.fields ? e.fields : {} };
}

/**
 * What a failed request tells the user: the server's own message when the server answered,
 * else the spec's fallback for the action (e.g. 'Invalid password or login'). A network failure
 * has no server message (status 0).
 */
export function failureMessage(error: unknown, fallback: string): string {
  const apiError = asApiError(error);
  return apiError && apiError.status > 0 && apiError.message ? apiError.message : fallback;
}

/** The per-field messages of a failed request, for the fields this form has. */
export function serverFieldErrors<F extends string>(error: unknown, fields: readonly F[]): Array<[F, string]> {
  const found = asApiError(error)?.fields ?? {};
  return fields.flatMap((field) => {
    const message = found[field];
    return typeof message === 'string' && message ? [[field, message] as [F, string]] : [];
  });
}
