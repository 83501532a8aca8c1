// The local mail catcher: MailDev (npm), an SMTP server that keeps every mail it receives and a
// web inbox. `npm start` and the browser tests send the API's mail to it over real SMTP.
import { join } from 'node:path';
import { repoRoot } from '../shared/build/index.mjs';
import { startProcess } from './processes.mjs';

// maildev exports no package.json to resolve, so its command is found in the root's node_modules.
const maildevBin = join(repoRoot, 'node_modules/maildev/dist/bin/maildev.js');

/**
 * Starts MailDev on 127.0.0.1. Answers the SMTP address for SMTP_URL, the inbox address and stop().
 * @param {{ smtpPort: number, webPort: number, log?: (line: string) => void }} o
 */
export async function startMailCatcher({ smtpPort, webPort, log = () => undefined }) {
  const { child, stop } = startProcess(
    process.execPath,
    [maildevBin, '--smtp', String(smtpPort), '--web', String(webPort), '--ip', '127.0.0.1', '--web-ip', '127.0.0.1', '--max-emails', '5000', '--silent'],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const prefix = (chunk) => chunk.toString().split('\n').filter(Boolean).map((l) => `[mail] ${l}`).join('\n');
  child.stdout.on('data', (d) => log(prefix(d)));
  child.stderr.on('data', (d) => log(prefix(d)));
  const inboxUrl = `http://127.0.0.1:${webPort}`;
  const until = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the mail catcher exited (${child.exitCode}); are ports ${smtpPort}/${webPort} free?`);
    try {
      if ((await fetch(`${inboxUrl}/api/healthz`)).ok) break;
    } catch {
      /* not up yet */
    }
    if (Date.now() > until) {
      await stop();
      throw new Error(`the mail catcher did not answer at ${inboxUrl}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return { smtpUrl: `smtp://127.0.0.1:${smtpPort}`, inboxUrl, child, stop };
}
