// A DNS server of the tests' own on loopback (UDP), so domain verification is checked against
// records the test sets, with Node's real resolver pointed at it (DNS_SERVERS). Packets are
// read and written with dns-packet (MIT).
import dgram from 'node:dgram';
import dnsPacket from 'dns-packet';

const RCODE_SERVFAIL = 2;
const RCODE_NXDOMAIN = 3;

export interface TestDnsServer {
  /** `127.0.0.1:PORT`: the value of DNS_SERVERS. */
  readonly address: string;
  /** TXT records by lower-case name: each record a list of strings (one record may be split in several). An empty list: the name exists without TXT records. */
  readonly txt: Map<string, string[][]>;
  /** Names answered SERVFAIL, as a broken authoritative server would. */
  readonly failing: Set<string>;
  /** Every question asked, in order. */
  readonly questions: Array<{ name: string; type: string }>;
  close(): Promise<void>;
}

export async function startDnsServer(): Promise<TestDnsServer> {
  const socket = dgram.createSocket('udp4');
  const txt = new Map<string, string[][]>();
  const failing = new Set<string>();
  const questions: Array<{ name: string; type: string }> = [];

  socket.on('message', (message, remote) => {
    let query: dnsPacket.Packet;
    try {
      query = dnsPacket.decode(message);
    } catch {
      return; // not DNS: no answer, as a real server
    }
    const question = query.questions?.[0];
    if (!question) return;
    const name = question.name.toLowerCase();
    questions.push({ name, type: question.type });
    const records = txt.get(name);
    let rcode = 0;
    if (failing.has(name)) rcode = RCODE_SERVFAIL;
    else if (records === undefined) rcode = RCODE_NXDOMAIN;
    const answers: dnsPacket.Answer[] =
      rcode === 0 && question.type === 'TXT' ? records!.map((data) => ({ type: 'TXT', name: question.name, ttl: 0, class: 'IN', data })) : [];
    const response = dnsPacket.encode({
      type: 'response',
      id: query.id,
      flags: dnsPacket.AUTHORITATIVE_ANSWER | dnsPacket.RECURSION_DESIRED | dnsPacket.RECURSION_AVAILABLE | rcode,
      questions: [question],
      answers,
    });
    socket.send(response, remote.port, remote.address);
  });

  await new Promise<void>((resolve, reject) => {
    socket.once('error', reject);
    socket.bind(0, '127.0.0.1', () => resolve());
  });
  return {
    address: `127.0.0.1:${socket.address().port}`,
    txt,
    failing,
    questions,
    close: () => new Promise((resolve) => socket.close(() => resolve())),
  };
}
