import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, translateMessage } from '@app/contracts';

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
 * What a failed request tells the user: the server's own message when the server answered,
 * else the spec's fallback for the action (e.g. 'Invalid password or login'). A network failure
 * has no server message (status 0).
 */
export function failureMessage(error: unknown, fallback: string): string {
  if (error instanceof ApiError && error.status > 0 && error.message) return error.message;
  return fallback;
}

/** The per-field messages of a failed request, for the fields this form has. */
export function serverFieldErrors<F extends string>(error: unknown, fields: readonly F[]): Array<[F, string]> {
  if (!(error instanceof ApiError)) return [];
  return fields.flatMap((field) => {
    const message = error.fields[field];
    return message ? [[field, message] as [F, string]] : [];
  });
}
