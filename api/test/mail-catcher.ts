import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import path from 'node:path';

/** A mail as MailDev's REST API gives it. */
export type CaughtMail = { to: { address: string }[]; from?: { address: string; name: string }[]; subject: string; text?: string; html?: string; headers?: Record<string, string>; time: string };

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });

/**
 * MailDev (the mail catcher `npm start` runs) on free ports, for one test file: the API sends to it
 * over SMTP like in production, and the tests read the codes from its inbox as a person would.
 */
export async function startMailCatcher() {
  const [smtpPort, webPort] = [await freePort(), await freePort()];
  // maildev exports no package.json, so its command is found in the root's node_modules.
  const bin = path.resolve(__dirname, '../../node_modules/maildev/dist/bin/maildev.js');
  const child: ChildProcess = spawn(
    process.execPath,
    [bin, '--smtp', String(smtpPort), '--web', String(webPort), '--ip', '127.0.0.1', '--web-ip', '127.0.0.1', '--silent'],
    { stdio: 'ignore' },
  );
  const inbox = `http://127.0.0.1:${webPort}`;
  for (let i = 0; ; i++) {
    try {
      if ((await fetch(`${inbox}/api/healthz`)).ok) break;
    } catch {
      if (child.exitCode !== null || i > 150) throw new Error('the mail catcher did not start');
      await new Promise((r) => setTimeout(r, 200));
    }
  }
  return {
    smtpUrl: `smtp://127.0.0.1:${smtpPort}`,
    /** Mails to an address, newest first. */
    async mailsTo(to: string): Promise<CaughtMail[]> {
      const all = (await (await fetch(`${inbox}/api/email`)).json()) as CaughtMail[];
      // The inbox lists mails in arrival order.
      return all.filter((m) => m.to.some((a) => a.address.toLowerCase() === to.toLowerCase())).reverse();
    },
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}
export type MailCatcher = Awaited<ReturnType<typeof startMailCatcher>>;
