import net from "node:net";

// A TCP proxy the test controls, to take a database away from a server without touching the
// machine's PostgreSQL (others test against it). cut() is what a stopped PostgreSQL looks like
// from the server: every live connection drops and new ones are refused; restore() brings the
// same address back.
export interface TcpProxy {
  port: number;
  /** Connections accepted since start, for the test's own figures. */
  accepted(): number;
  cut(): Promise<void>;
  restore(): Promise<void>;
  close(): Promise<void>;
}

export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  const live = new Set<net.Socket>();
  let accepted = 0;
  let server: net.Server | undefined;
  let port = 0;

  const open = () =>
    new Promise<void>((resolve, reject) => {
      const srv = net.createServer((client) => {
        accepted++;
        const upstream = net.connect(target);
        live.add(client);
        live.add(upstream);
        const drop = () => {
          client.destroy();
          upstream.destroy();
          live.delete(client);
          live.delete(upstream);
        };
        client.on("error", drop).on("close", drop);
        upstream.on("error", drop).on("close", drop);
        client.pipe(upstream);
        upstream.pipe(client);
      });
      srv.once("error", reject);
      srv.listen(port, "127.0.0.1", () => {
        const address = srv.address();
        port = typeof address === "object" && address ? address.port : port;
        server = srv;
        resolve();
      });
    });

  const shut = async () => {
    const srv = server;
    server = undefined;
    // Stop listening first (new connections get ECONNREFUSED), then drop the live ones.
    const closed = srv ? new Promise<void>((resolve) => srv.close(() => resolve())) : undefined;
    for (const socket of live) socket.destroy();
    live.clear();
    await closed;
  };

  await open();
  return {
    get port() {
      return port;
    },
    accepted: () => accepted,
    cut: shut,
    async restore() {
      if (!server) await open();
    },
    close: shut,
  };
}
