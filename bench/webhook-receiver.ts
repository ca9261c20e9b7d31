// A webhook receiver for the webhook scenarios of npm run bench (bench/webhook-servers.ts): one that answers 204 at once, or one that never answers (its
// requests are held until it closes), counting what reaches it.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export async function startHookReceiver(hang: boolean) {
  let received = 0;
  const server = http.createServer((request, response) => {
    received += 1;
    request.resume();
    if (!hang) request.on('end', () => response.writeHead(204).end());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    received: () => received,
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
