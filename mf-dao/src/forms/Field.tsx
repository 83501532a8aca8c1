import type { InputHTMLAttributes, ReactNode } from 'react';

interface Props extends Omit<InputHTMLAttributes<HTMLInputElement>, 'id'> {
  id: string;
  label: ReactNode;
  /** Already in the page's language. */
  error?: string | undefined;
  hint?: ReactNode;
}

/** A labelled input with its hint and error under it, both read with it by screen readers. */
export function Field({ id, label, error, hint, className, ...input }: Props) {
  const described = [hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ') || undefined;
  return (
    <div className={['field', error ? 'field--invalid' : '', className ?? ''].filter(Boolean).join(' ')}>
      <label htmlFor={id}>{label}</label>
      <input id={id} aria-invalid={error ? true : undefined} aria-describedby={described} {...input} />
      {hint ? (
        <p id={`${id}-hint`} className="field__hint">
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={`${id}-error`} className="field__error">
          {error}
        </p>
      ) : null}
    </div>
  );
}

/** The form's general message, when a submit found problems in its fields. */
export function FormSummary({ text }: { text: string | undefined }) {
  return text ? (
    <p className="field__error form__summary" role="alert">
      {text}
    </p>
  ) : null;
}
