/**
 * The import's worker thread (started by prepare.ts `prepared`): reads and prepares the rows of one file
 * (`workerData`: file, kind, batch size, batches ahead) and posts them batch by batch, never more than
 * `ahead` batches before the writer has taken them (it answers each batch with "next").
 */
import { parentPort, workerData } from 'node:worker_threads';
import { preparedInThread, type ImportKind, type WorkerMessage } from './prepare';

const { file, kind, size, ahead } = workerData as {
  file: string;
  kind: ImportKind;
  size: number;
  ahead: number;
};
const port = parentPort!;
let credit = ahead;
let wake: (() => void) | undefined;
port.on('message', () => {
  credit++;
  wake?.();
});
const post = (m: WorkerMessage) => port.postMessage(m);
let bytes = { read: 0, total: 0 };
try {
  for await (const rows of preparedInThread(file, kind, size, (read, total) => (bytes = { read, total }))) {
    while (credit <= 0) await new Promise<void>((r) => (wake = r));
    credit--;
    post({ type: 'batch', rows, ...bytes });
  }
  post({ type: 'done' });
} catch (e) {
  post({ type: 'error', message: (e as Error).message });
}
