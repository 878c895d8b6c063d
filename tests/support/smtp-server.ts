import { SMTPServer, type SMTPServerSession } from "smtp-server";

/**
 * A real SMTP server for the mail tests (smtp-server on loopback, which offers STARTTLS with its own certificate
 * and asks for a password), keeping every message it takes whole. It imports nothing of the portal, so a test
 * file can start it and set SMTP_URL before the portal's modules load.
 */
export interface Delivery {
  raw: string;
  /** Whether the message came over TLS (STARTTLS on smtp://). */
  secure: boolean;
  /** Who signed in to send it. */
  user: unknown;
  /** The envelope's recipients. */
  to: string[];
}

export interface RunningSmtpServer {
  /** An SMTP_URL for it, signed in with its password; its certificate is its own, so not checked. */
  url: string;
  /** Every message taken, in order. */
  deliveries: Delivery[];
  /** Makes the server take the next message whole and then drop the connection before answering. */
  loseNextAnswer(): void;
  /** Makes the server answer RCPT TO for this address with the reply code (550 refuses for good, 450 for now). */
  refuseRecipient(address: string, responseCode: number): void;
  close(): Promise<void>;
}

const USER = "portal";
const PASSWORD = "mail-secret";

export async function startSmtpServer(): Promise<RunningSmtpServer> {
  const deliveries: Delivery[] = [];
  const refusals = new Map<string, number>();
  let loseNextAnswer = false;

  const server = new SMTPServer({
    authMethods: ["PLAIN", "LOGIN"],
    logger: false,
    onAuth(auth, _session, callback) {
      if (auth.username === USER && auth.password === PASSWORD) callback(null, { user: USER });
      else callback(new Error("Invalid username or password"));
    },
    onRcptTo(address, _session, callback) {
      const responseCode = refusals.get(address.address);
      if (responseCode) callback(Object.assign(new Error("Recipient refused"), { responseCode }));
      else callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", () => {
        deliveries.push({
          raw: Buffer.concat(chunks).toString(),
          secure: session.secure,
          user: session.user,
          to: session.envelope.rcptTo.map((recipient) => recipient.address),
        });
        if (loseNextAnswer) {
          loseNextAnswer = false;
          dropConnectionOf(session);
          return;
        }
        callback();
      });
    },
  });

  /** The server's connection for a session, closed without a word: the client never hears whether its message was taken. */
  function dropConnectionOf(session: SMTPServerSession) {
    for (const connection of server.connections as Set<{ id: string; _socket: { destroy(): void } }>) {
      if (connection.id === session.id) connection._socket.destroy();
    }
  }

  const port = await new Promise<number>((resolve) =>
    server.listen(0, "127.0.0.1", () => resolve((server.server.address() as { port: number }).port)),
  );
  return {
    url: `smtp://${USER}:${PASSWORD}@127.0.0.1:${port}/?tls.rejectUnauthorized=false`,
    deliveries,
    loseNextAnswer: () => {
      loseNextAnswer = true;
    },
    refuseRecipient: (address, responseCode) => refusals.set(address, responseCode),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
