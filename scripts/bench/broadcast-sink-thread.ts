/**
 * The broadcast bench's relay (scripts/bench/broadcasts.ts, `startSink`): a real SMTP server that
 * accepts everything, on a thread of its own at the lowest priority. In a deployment the relay is
 * another machine; here it shares two cores with the site and the visitors' load, and what it
 * spends on each mail (about a millisecond) is not the site's. At nice 19 it runs on what the
 * others leave idle, as a remote relay would take nothing from them at all.
 *
 * It tells the bench of each mail accepted (when, by the bench's clock, and to whom). Told to,
 * it interrupts the sender when a given number of mails has arrived: the next mail's data is in,
 * its acceptance not yet given; the bench does what it wanted then (it kills the site), and only
 * then is the mail refused.
 */
import { parentPort } from "node:worker_threads";
import { SMTPServer } from "smtp-server";
import { lowerThisThreadPriority } from "#server/outbox/thread-priority.ts";
import { listenSmtpSink } from "./smtp-sink.ts";

export type SinkToBench =
  | { type: "listening"; url: string; lowered: boolean }
  | { type: "arrival"; at: number; to: string[] }
  | { type: "interrupting" }
  | { type: "closed" };
export type BenchToSink =
  { type: "interrupt-at"; at: number } | { type: "go-on" } | { type: "close" };

const port = parentPort!;
const lowered = lowerThisThreadPriority(19).lowered;
let accepted = 0;
let interruptAt: number | null = null;
let goOn: (() => void) | null = null;
const send = (message: SinkToBench) => port.postMessage(message);

const server = new SMTPServer({
  disabledCommands: ["STARTTLS", "AUTH"],
  authOptional: true,
  logger: false,
  onData(stream, session, callback) {
    stream.on("data", () => {});
    stream.on("end", () => {
      if (interruptAt !== null && accepted >= interruptAt) {
        interruptAt = null;
        goOn = () => callback(new Error("the sender was stopped"));
        send({ type: "interrupting" });
        return;
      }
      accepted++;
      // The bench's clock: its own performance.now() is counted from its own time origin.
      send({
        type: "arrival",
        at: performance.timeOrigin + performance.now(),
        to: session.envelope.rcptTo.map((box) => box.address),
      });
      callback();
    });
  },
});
const sink = await listenSmtpSink(server);
send({ type: "listening", url: sink.url, lowered });

port.on("message", (message: BenchToSink) => {
  if (message.type === "interrupt-at") interruptAt = message.at;
  else if (message.type === "go-on") {
    goOn?.();
    goOn = null;
  } else
    void sink.close().then(() => {
      send({ type: "closed" });
      port.close();
    });
});
