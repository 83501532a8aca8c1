export { TextField, CheckboxField, SubmitButton } from './Field';
export { EmailField, NewPasswordFields } from './fields';
export { useAuthForm, loadSchemas } from './useAuthForm';
export { useLang, useMessage, asApiError, failureMessage, serverFieldErrors, type Lang } from './messages';
export { useNotify } from './notify';
export { readCookie, arrivalSource, inviteFromVisit, isWellFormedInvite } from './arrival';
