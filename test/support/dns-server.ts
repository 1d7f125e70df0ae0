import dns2 from 'dns2';

const { Packet } = dns2;
/** Response codes (RFC 1035 §4.1.1), which dns2's types leave out. */
const RCODE = { SERVFAIL: 2, NXDOMAIN: 3 };

/** The records of one name. `txt`: one entry per TXT record, each one string or its chunks. */
export interface NameRecords {
  txt?: Array<string | string[]>;
  cname?: string;
  a?: string[];
}

/**
 * A real DNS server on 127.0.0.1 (UDP, dns2) whose zone the test edits while it runs: point the
 * service's DNS_SERVERS at `address`. Names without records answer NXDOMAIN; names in `silent`
 * get no answer at all (a resolver that times out); `failing` ones answer SERVFAIL.
 */
export class TestDnsServer {
  readonly records = new Map<string, NameRecords>();
  readonly silent = new Set<string>();
  readonly failing = new Set<string>();
  readonly questions: Array<{ name: string; type: number }> = [];
  /** Names whose answer changes from one question to the next (`answerInTurn`). */
  private readonly sequences = new Map<string, NameRecords[]>();
  private server?: ReturnType<typeof dns2.createServer>;
  address = '';

  async start(): Promise<void> {
    this.server = dns2.createServer({
      udp: true,
      handle: (request, send) => {
        const [question] = request.questions;
        const name = question.name.toLowerCase().replace(/\.$/, '');
        this.questions.push({ name, type: question.type });
        if (this.silent.has(name)) return;
        const response = Packet.createResponseFromRequest(request);
        if (this.failing.has(name)) {
          response.header.rcode = RCODE.SERVFAIL;
          void send(response);
          return;
        }
        // A name with a sequence answers its next records to each question (the last ones then stay): a rebinding name.
        const sequence = this.sequences.get(name);
        const records = sequence && sequence.length > 1 ? sequence.shift() : (sequence?.[0] ?? this.records.get(name));
        if (!records) {
          response.header.rcode = RCODE.NXDOMAIN;
          void send(response);
          return;
        }
        // dns2 encodes plain objects (its types ask for Resource instances).
        const answer = (record: object) => response.answers.push({ name: question.name, class: Packet.CLASS.IN, ttl: 1, ...record } as never);
        if (question.type === Packet.TYPE.TXT) for (const data of records.txt ?? []) answer({ type: Packet.TYPE.TXT, data });
        if (question.type === Packet.TYPE.CNAME && records.cname) answer({ type: Packet.TYPE.CNAME, domain: records.cname });
        if (question.type === Packet.TYPE.A) for (const address of records.a ?? []) answer({ type: Packet.TYPE.A, address });
        void send(response);
      },
    });
    const addresses = await this.server.listen({ udp: { port: 0, address: '127.0.0.1' } });
    this.address = `127.0.0.1:${addresses.udp!.port}`;
  }

  /** Sets (or with `undefined`, removes) the records of a name. */
  set(name: string, records: NameRecords | undefined): void {
    if (records) this.records.set(name, records);
    else this.records.delete(name);
  }

  /** Answers the first question for `name` with the first records, the next with the next…, then the last ones. */
  answerInTurn(name: string, ...answers: NameRecords[]): void {
    this.sequences.set(name, answers);
  }

  async stop(): Promise<void> {
    await this.server?.close();
  }
}
