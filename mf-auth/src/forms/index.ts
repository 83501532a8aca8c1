export { TextField, CheckboxField, SubmitButton } from './Field';
export { EmailField, NewPasswordFields } from './fields';
export { useAuthForm } from './useAuthForm';
export { useLang, useMessage, failureMessage, serverFieldErrors, type Lang } from './messages';
export { useNotify } from './notify';
export * from './schemas';
export { readCookie, arrivalSource, inviteFromVisit, isWellFormedInvite } from './arrival';
