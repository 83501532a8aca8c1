import { useCallback, useState } from 'react';
import { get, useForm, type DefaultValues, type FieldValues, type Path, type Resolver, type UseFormRegisterReturn } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import type * as z from 'zod/mini';
import { failureMessage, serverFieldErrors, useMessage } from './messages';
import { useNotify } from './notify';

type Schemas = typeof import('./schemas');

/**
 * The schemas, and zod with them, load when a form is first used (focused or checked), not with
 * the page: zod is most of this remote's weight, and the sign-in page's first load has a budget.
 */
export const loadSchemas = (): Promise<Schemas> => import(/* webpackChunkName: "auth-schemas" */ './schemas');

/**
 * A form of these screens: validated by a schema from @app/contracts when a field is left and on
 * submit, messages shown in the page's language, and one way to report a failed request.
 */
export function useAuthForm<S extends z.ZodMiniType<FieldValues, FieldValues>>(pick: (schemas: Schemas) => S, defaultValues: DefaultValues<z.input<S>>) {
  const message = useMessage();
  const notify = useNotify();
  // Made once: `pick` is the form's fixed choice of schema.
  const [resolver] = useState(() => {
    const lazy: Resolver<z.input<S>, unknown, z.output<S>> = async (values, context, options) => {
      const schema = pick(await loadSchemas());
      // The resolver's overloads cannot follow a generic schema; the type above is what it gives.
      return (zodResolver(schema as never) as unknown as typeof lazy)(values, context, options);
    };
    return lazy;
  });
  const form = useForm<z.input<S>, unknown, z.output<S>>({ resolver, mode: 'onTouched', defaultValues });
  const { register, setError, setFocus, trigger, getFieldState, formState } = form;

  /** What a field needs to show: its registration and its message, in the page's language. */
  const field = (name: Path<z.input<S>>): { registration: UseFormRegisterReturn; error?: string } => {
    const text = (get(formState.errors, name) as { message?: string } | undefined)?.message;
    // A message put there by the server or by a button's own check goes as soon as the field is
    // changed, not only when it is left: leaving it for the button below would move the button
    // under the pointer mid-click.
    const onChange = async () => {
      if (getFieldState(name).invalid) await trigger(name);
    };
    return { registration: register(name, { onChange }), error: text ? message(text) : undefined };
  };

  /**
   * A request failed: the server's per-field messages go beside their fields (the first one gets
   * the focus), and an Error notification says the server's message, else `fallback`.
   */
  const fail = useCallback(
    (error: unknown, fallback: string, fields: ReadonlyArray<Path<z.input<S>>>) => {
      const found = serverFieldErrors(error, fields);
      for (const [name, text] of found) setError(name, { type: 'server', message: text });
      if (found[0]) setFocus(found[0][0]);
      notify.error(message(failureMessage(error, fallback)));
    },
    [message, notify, setError, setFocus],
  );

  /** For the form element: starts loading the schemas as soon as the person starts on the form. */
  const formProps = { noValidate: true, onFocus: () => void loadSchemas() };

  return { ...form, field, fail, message, notify, busy: formState.isSubmitting, formProps };
}
