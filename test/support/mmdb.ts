// A minimal MaxMind DB (MMDB) writer for test fixtures: IPv4 networks with a record each,
// in the format mmdb-lib reads (24-bit records, format 2.0). Enough for a city database of
// a few networks; not a general encoder.

type Value = string | number | { [key: string]: Value };

function control(type: number, size: number): Buffer {
  if (size >= 29) throw new Error('mmdb fixture: value too long');
  return type <= 7 ? Buffer.from([(type << 5) | size]) : Buffer.from([size, type - 7]);
}

function encode(value: Value): Buffer {
  if (typeof value === 'string') {
    const bytes = Buffer.from(value, 'utf8');
    return Buffer.concat([control(2, bytes.length), bytes]);
  }
  if (typeof value === 'number') {
    // uint32, big-endian, without leading zero bytes
    const bytes = Buffer.alloc(4);
    bytes.writeUInt32BE(value);
    let start = 0;
    while (start < 4 && bytes[start] === 0) start++;
    return Buffer.concat([control(6, 4 - start), bytes.subarray(start)]);
  }
  const entries = Object.entries(value);
  return Buffer.concat([control(7, entries.length), ...entries.flatMap(([k, v]) => [encode(k), encode(v)])]);
}

/** An MMDB file mapping each IPv4 network (`a.b.c.d/len`) to its record. */
export function mmdbFile(networks: Record<string, Value>, databaseType = 'Brief-Test-City'): Buffer {
  // The search tree: a binary trie over address bits. Node 0 is the root; -1 = empty, -(2 + i) = data i.
  const nodes: Array<[number, number]> = [[-1, -1]];
  const data: Buffer[] = [];
  for (const [network, record] of Object.entries(networks)) {
    const [address, length] = network.split('/') as [string, string];
    const bits = address.split('.').reduce((n, part) => n * 256 + Number(part), 0);
    data.push(encode(record));
    let node = 0;
    for (let depth = 0; depth < Number(length); depth++) {
      const bit = (bits >>> (31 - depth)) & 1;
      if (depth === Number(length) - 1) {
        nodes[node]![bit] = -(2 + data.length - 1);
      } else {
        if (nodes[node]![bit]! < 0) {
          nodes.push([-1, -1]);
          nodes[node]![bit] = nodes.length - 1;
        }
        node = nodes[node]![bit]!;
      }
    }
  }
  const nodeCount = nodes.length;
  const offsets: number[] = [];
  let at = 0;
  for (const d of data) {
    offsets.push(at);
    at += d.length;
  }
  const tree = Buffer.alloc(nodeCount * 6);
  nodes.forEach(([left, right], i) => {
    const value = (r: number) => (r >= 0 ? r : r === -1 ? nodeCount : nodeCount + 16 + offsets[-r - 2]!);
    tree.writeUIntBE(value(left), i * 6, 3);
    tree.writeUIntBE(value(right), i * 6 + 3, 3);
  });
  const uint16 = (n: number) => Buffer.concat([control(5, 2), Buffer.from([n >> 8, n & 255])]);
  const metadataFields: Array<[string, Buffer]> = [
    ['node_count', encode(nodeCount)],
    ['record_size', uint16(24)],
    ['ip_version', uint16(4)],
    ['database_type', encode(databaseType)],
    ['languages', Buffer.concat([control(11, 1), encode('en')])],
    ['binary_format_major_version', uint16(2)],
    ['binary_format_minor_version', uint16(0)],
    ['build_epoch', encode(1_800_000_000)],
    ['description', encode({ en: 'Brief test fixture' })],
  ];
  const metadata = Buffer.concat([control(7, metadataFields.length), ...metadataFields.flatMap(([k, v]) => [encode(k), v])]);
  return Buffer.concat([tree, Buffer.alloc(16), ...data, Buffer.from('\xab\xcd\xefMaxMind.com', 'latin1'), metadata]);
}
