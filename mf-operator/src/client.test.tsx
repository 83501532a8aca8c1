/** @jest-environment jsdom */
import { act, renderHook } from '@testing-library/react';
import { operatorTotpHeader } from '@app/contracts';
import { OperatorCallError, useSessionState } from './client';

type Sent = { url: string; init: RequestInit };
const sent: Sent[] = [];
/** The operator API as the browser would reach it: each call answered in turn with a status and a body. */
function answers(...list: { status: number; body: unknown }[]) {
  globalThis.fetch = jest.fn(async (url: string, init: RequestInit) => {
    sent.push({ url, init });
    const next = list.shift() ?? { status: 500, body: {} };
    return { ok: next.status < 400, status: next.status, statusText: '', text: async () => JSON.stringify(next.body) } as Response;
  }) as unknown as typeof fetch;
}

const session = { token: 'a'.repeat(43), name: 'alice', idleMinutes: 15 };

describe('the console\'s session (issue 26)', () => {
  beforeEach(() => {
    sent.length = 0;
  });

  it('sends the session, the page\'s language and a change\'s code to /operator-api/', async () => {
    answers({ status: 200, body: { id: 1, status: 'requested', approvals: 1, needed: 1 } });
    const { result } = renderHook(() => useSessionState('ru'));
    act(() => result.current.signedIn(session));
    await act(() => result.current.call('withdrawals/1/approve', { method: 'POST', body: {}, totp: '123456' }));
    const headers = sent[0]!.init.headers as Record<string, string>;
    expect(sent[0]!.url).toBe('/operator-api/withdrawals/1/approve');
    expect([headers.Authorization, headers[operatorTotpHeader], headers['Accept-Language']]).toEqual([`Operator ${session.token}`, '123456', 'ru']);
  });

  it('a wrong code keeps the session; a session the API ended signs the console out and says why', async () => {
    const wrong = { code: 'OPERATOR_CODE_WRONG', message: 'The authenticator code is wrong or expired' };
    const over = { code: 'OPERATOR_SESSION_ENDED', message: 'Your operator session has ended. Please sign in again.' };
    answers({ status: 401, body: wrong }, { status: 401, body: over });
    const { result } = renderHook(() => useSessionState('en'));
    act(() => result.current.signedIn(session));
    await act(() => expect(result.current.call('withdrawals/1/approve', { method: 'POST', totp: '000000' })).rejects.toEqual(new OperatorCallError(wrong.message, 401, wrong.code)));
    expect(result.current.session).toEqual(session);
    await act(() => expect(result.current.call('overview')).rejects.toBeInstanceOf(OperatorCallError));
    expect([result.current.session, result.current.ended]).toEqual([null, over.message]);
    act(() => result.current.signedIn(session));
    expect(result.current.ended).toBeNull();
  });
});
