import { useCallback, useRef, useState, useTransition, type FocusEvent, type FormEvent } from 'react';
import type * as z from 'zod/mini';
import { failureMessage, serverFieldErrors, useMessage } from './messages';
import { useNotify } from './notify';

type Schemas = typeof import('./schemas');
type FormValues = Record<string, string | boolean>;

/**
 * The schemas, and zod with them, load when a form is first used (focused or checked), not with
 * the page: zod is most of this remote's weight, and the sign-in page's first load has a budget.
 */
export const loadSchemas = (): Promise<Schemas> => import(/* webpackChunkName: "auth-schemas" */ './schemas');

/** What an input of the form gets: its name and first value; the browser keeps what is typed. */
export interface Registration {
  name: string;
  defaultValue?: string;
  defaultChecked?: boolean;
  onChange: () => void;
  onBlur: (event: FocusEvent<HTMLInputElement>) => void;
}

/** A field's registration and its message, in the page's language. */
export interface BoundField {
  registration: Registration;
  error?: string;
}

/**
 * A form of these screens. The inputs keep their own values (the form's FormData is the state);
 * a field is checked against its schema from @app/contracts when it is left, then on each
 * change, and every field on submit; the submit runs as a React transition, whose pending flag
 * is the busy state. Messages are shown in the page's language, and a failed request is reported
 * one way.
 */
export function useAuthForm<S extends z.ZodMiniType<FormValues, FormValues>>(pick: (schemas: Schemas) => S, defaultValues: z.input<S>) {
  type Name = Extract<keyof z.input<S>, string>;
  const message = useMessage();
  const notify = useNotify();
  const formRef = useRef<HTMLFormElement | null>(null);
  const [errors, setErrors] = useState<Partial<Record<Name, string>>>({});
  const touched = useRef(new Set<Name>());
  const [busy, startTransition] = useTransition();
  const names = Object.keys(defaultValues) as Name[];

  const input = useCallback((name: Name) => formRef.current?.elements.namedItem(name) as HTMLInputElement | null | undefined, []);
  const getValues = useCallback(
    (name: Name): z.input<S>[Name] => {
      const element = input(name);
      // A value the page shows read-only (the signed-in account) has no input: it is the default.
      if (!element) return defaultValues[name];
      return (element.type === 'checkbox' ? element.checked : element.value) as z.input<S>[Name];
    },
    // The defaults are the form's first values; a new form (a new key) gets new ones.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [input],
  );
  const setFocus = useCallback((name: Name) => input(name)?.focus(), [input]);
  const setError = useCallback((name: Name, text: string | undefined) => setErrors((current) => ({ ...current, [name]: text })), []);

  /** Checks the whole form with its schema and shows the messages of `only` (default: every field). */
  const validate = useCallback(
    async (only: readonly Name[] = names): Promise<{ valid: boolean; data?: z.output<S>; firstInvalid?: Name }> => {
      const schema = pick(await loadSchemas());
      const values = Object.fromEntries(names.map((name) => [name, getValues(name)]));
      const result = schema.safeParse(values);
      const found: Partial<Record<Name, string>> = {};
      for (const issue of result.success ? [] : result.error.issues) {
        const name = issue.path[0] as Name;
        found[name] ??= issue.message;
      }
      setErrors((current) => {
        const next = { ...current };
        for (const name of only) next[name] = found[name];
        return next;
      });
      const firstInvalid = names.find((name) => only.includes(name) && found[name]);
      return { valid: firstInvalid === undefined, data: result.success ? result.data : undefined, firstInvalid };
    },
    // `pick` is the form's fixed choice of schema; the names are its fields.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [getValues],
  );

  /** Checks some fields now; with shouldFocus the first invalid one gets the focus. */
  const trigger = useCallback(
    async (name: Name, options: { shouldFocus?: boolean } = {}) => {
      touched.current.add(name);
      const { valid } = await validate([name]);
      if (!valid && options.shouldFocus) setFocus(name);
      return valid;
    },
    [validate, setFocus],
  );

  const field = (name: Name): BoundField => {
    const initial = defaultValues[name];
    const recheck = () => void validate([name]);
    return {
      registration: {
        name,
        ...(typeof initial === 'boolean' ? { defaultChecked: initial } : { defaultValue: String(initial ?? '') }),
        // A message put there by the server or by a button's own check goes as soon as the
        // field is changed, not only when it is left: leaving it for the button below would
        // move the button under the pointer mid-click.
        onChange: () => {
          if (touched.current.has(name) || errors[name]) recheck();
        },
        onBlur: () => {
          touched.current.add(name);
          recheck();
        },
      },
      error: errors[name] ? message(errors[name]) : undefined,
    };
  };

  /** The form's submit handler: every field checked, then `action` with the parsed values. */
  const handleSubmit = (action: (values: z.output<S>) => Promise<void>) => (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    startTransition(async () => {
      names.forEach((name) => touched.current.add(name));
      const { data, firstInvalid } = await validate();
      if (firstInvalid !== undefined || data === undefined) {
        if (firstInvalid !== undefined) setFocus(firstInvalid);
        return;
      }
      await action(data);
    });
  };

  /**
   * A request failed: the server's per-field messages go beside their fields (the first one gets
   * the focus), and an Error notification says the server's message, else `fallback`.
   */
  const fail = useCallback(
    (error: unknown, fallback: string, fields: readonly Name[]) => {
      const found = serverFieldErrors(error, fields);
      for (const [name, text] of found) setError(name, text);
      if (found[0]) setFocus(found[0][0]);
      notify.error(message(failureMessage(error, fallback)));
    },
    [message, notify, setError, setFocus],
  );

  /** For the form element: starts loading the schemas as soon as the person starts on the form. */
  const formProps = {
    noValidate: true,
    ref: formRef,
    onFocus: () => void loadSchemas(),
  };

  return { handleSubmit, trigger, getValues, setFocus, field, fail, message, notify, busy, formProps };
}
