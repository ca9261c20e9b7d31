// A TCP proxy in front of PostgreSQL that a test can cut and restore, to play a
// database that goes away (refused connections, dropped sessions) or hangs.
import net from 'node:net';

export class TcpProxy {
  private server: net.Server | undefined;
  private readonly sockets = new Set<net.Socket>();
  /** 'forward': normal; 'hang': accept connections and never answer. */
  private mode: 'forward' | 'hang' = 'forward';
  port = 0;

  constructor(
    private readonly targetHost: string,
    private readonly targetPort: number,
  ) {}

  async start(): Promise<void> {
    const server = net.createServer((client) => this.accept(client));
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.port, '127.0.0.1', () => resolve());
    });
    this.server = server;
    this.port = (server.address() as net.AddressInfo).port;
  }

  /** The database is gone: every session drops and new connections are refused. */
  async cut(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    for (const socket of this.sockets) socket.destroy();
    this.sockets.clear();
    if (server) await new Promise((resolve) => server.close(resolve));
  }

  /** The database is unreachable in the slow way: connections open and then nothing. */
  hang(): void {
    this.mode = 'hang';
    for (const socket of this.sockets) socket.destroy();
    this.sockets.clear();
  }

  /** The database is back, on the same port. */
  async restore(): Promise<void> {
    this.mode = 'forward';
    for (const socket of this.sockets) socket.destroy();
    this.sockets.clear();
    if (!this.server) await this.start();
  }

  async close(): Promise<void> {
    await this.cut();
  }

  private accept(client: net.Socket): void {
    this.sockets.add(client);
    client.on('close', () => this.sockets.delete(client));
    client.on('error', () => client.destroy());
    if (this.mode === 'hang') return;
    const upstream = net.connect(this.targetPort, this.targetHost);
    this.sockets.add(upstream);
    upstream.on('close', () => {
      this.sockets.delete(upstream);
      client.destroy();
    });
    upstream.on('error', () => upstream.destroy());
    client.on('close', () => upstream.destroy());
    client.pipe(upstream);
    upstream.pipe(client);
  }
}
