import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import { apiMessages as M, translateMessage, type ErrorResponse } from '@app/contracts';
import { langOf } from './lang';
import { loggableError } from './input';

/** An expected failure: answered with its status and message, never logged as an error. */
export class ApiError extends Error {
  constructor(
    public readonly statusCode: number,
    message: string,
    public readonly code?: string,
    public readonly fields?: Record<string, string>,
  ) {
    super(message);
  }
}

export const badRequest = (message: string, code = 'BAD_REQUEST', fields?: Record<string, string>) =>
  new ApiError(400, message, code, fields);
export const unauthorized = (message: string = M.loginRequired, code = 'UNAUTHORIZED') => new ApiError(401, message, code);

/** The first problem per field, keyed by its dotted path ('' for the whole body). */
function fieldMessages(issues: { instancePath: string; message?: string }[]): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const issue of issues) {
    const key = issue.instancePath.replace(/^\//, '').replaceAll('/', '.');
    if (!(key in fields)) fields[key] = issue.message ?? M.invalidValue;
  }
  return fields;
}

/** A PostgreSQL data exception (SQLSTATE class 22), anywhere in the error's causes. */
function dataException(err: unknown): boolean {
  for (let e = err as { code?: unknown; cause?: unknown } | undefined, i = 0; e && i < 5; e = e.cause as typeof e, i++) {
    if (typeof e.code === 'string' && /^22[0-9A-Z]{3}$/.test(e.code)) return true;
  }
  return false;
}

/** Known Fastify client errors and the catalogue message each answers with. */
const fastifyClientErrors: Record<string, string> = {
  FST_ERR_CTP_BODY_TOO_LARGE: M.payloadTooLarge,
  FST_ERR_CTP_INVALID_MEDIA_TYPE: M.unsupportedMediaType,
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: M.invalidFields,
  FST_ERR_CTP_EMPTY_JSON_BODY: M.invalidFields,
  FST_ERR_CTP_INVALID_JSON_BODY: M.invalidFields,
};

function send(req: FastifyRequest, reply: FastifyReply, status: number, body: ErrorResponse) {
  const lang = langOf(req);
  const translated: ErrorResponse = { ...body, message: translateMessage(body.message, lang) };
  if (body.fields) {
    translated.fields = Object.fromEntries(
      Object.entries(body.fields).map(([k, v]) => [k, translateMessage(v, lang)]),
    );
  }
  return reply.code(status).type('application/json; charset=utf-8').send(translated);
}

export function errorHandler(err: FastifyError | ApiError | Error, req: FastifyRequest, reply: FastifyReply) {
  if (err instanceof ApiError) {
    return send(req, reply, err.statusCode, { message: err.message, code: err.code, fields: err.fields });
  }
  if (hasZodFastifySchemaValidationErrors(err)) {
    return send(req, reply, 400, { message: M.invalidFields, code: 'VALIDATION', fields: fieldMessages(err.validation) });
  }
  const fe = err as FastifyError;
  if (fe.code && fe.code in fastifyClientErrors) {
    return send(req, reply, fe.statusCode ?? 400, { message: fastifyClientErrors[fe.code] as string, code: 'BAD_REQUEST' });
  }
  if (isResponseSerializationError(err)) {
    req.log.error({ err, issues: err.cause.issues }, 'response does not match its schema');
    return send(req, reply, 500, { message: M.internalError, code: 'INTERNAL' });
  }
  if (dataException(err)) {
    // A value the database cannot take (out of range, bad encoding) that validation let through.
    return send(req, reply, 400, { message: M.invalidFields, code: 'VALIDATION' });
  }
  if (fe.statusCode && fe.statusCode >= 400 && fe.statusCode < 500) {
    // Other client errors Fastify raises (bad headers, bad URL…): a 4xx with a generic message.
    return send(req, reply, fe.statusCode, { message: M.invalidFields, code: 'BAD_REQUEST' });
  }
  // Unexpected: log it with the request id (without query parameters), tell the caller nothing internal.
  req.log.error({ err: loggableError(err) }, 'unhandled error');
  return send(req, reply, 500, { message: M.internalError, code: 'INTERNAL' });
}
