import type { InputHTMLAttributes, ReactNode } from 'react';
import { FieldNotes, describedInput, fieldClass } from '@app/ui';
import type { Registration } from './useAuthForm';

interface FieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'id'> {
  id: string;
  label: ReactNode;
  /** The message to show, already in the page's language. */
  error?: string;
  /** A standing explanation under the field (e.g. the password rules). */
  hint?: ReactNode;
  registration?: Registration;
}

/** The input's own attributes: its state and what describes it, then the form's registration. */
function inputProps({ id, error, hint, registration, ...input }: Omit<FieldProps, 'label' | 'className'>) {
  return { ...describedInput(id, error, hint), ...input, ...registration };
}

/** A labelled input whose error sits beside it and is read with it by screen readers. */
export function TextField({ label, className, ...props }: FieldProps) {
  return (
    <div className={fieldClass('field', props.error, className)}>
      <label htmlFor={props.id}>{label}</label>
      <input {...inputProps(props)} />
      <FieldNotes id={props.id} hint={props.hint} error={props.error} />
    </div>
  );
}

/** A checkbox with its label after it, and its error beside it. */
export function CheckboxField({ label, className, ...props }: FieldProps) {
  return (
    <div className={fieldClass('field field--check', props.error, className)}>
      <div className="field__check-row">
        <input type="checkbox" {...inputProps(props)} />
        <label htmlFor={props.id}>{label}</label>
      </div>
      <FieldNotes id={props.id} hint={props.hint} error={props.error} />
    </div>
  );
}

/** The submit button: disabled with a busy label while its request runs. */
export function SubmitButton({ busy, label, busyLabel }: { busy: boolean; label: string; busyLabel: string }) {
  return (
    <button type="submit" className="btn btn--primary" disabled={busy}>
      {busy ? busyLabel : label}
    </button>
  );
}
