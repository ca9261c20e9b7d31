// The addresses this instance answers on: with STRICT_HOSTS off every Host it is reached by is served
// (as the default domain), so a link to any of them on its port loops back to Brief (decision 0015).
import os from 'node:os';
import type { Config } from '../config.js';
import { canonicalHostname, type Endpoint, ipAddressOf, isOwnMachine, writtenAddress } from './host-names.js';

/** How long the machine's interface addresses are kept before they are read again (a DHCP lease may change them). */
const INTERFACES_TTL_MS = 10_000;

export interface MachineInfo {
  networkInterfaces(): NodeJS.Dict<os.NetworkInterfaceInfo[]>;
  hostname(): string;
}

/**
 * Whether an endpoint reaches this instance itself: on the port it listens on (PORT), a host that is
 * `localhost` or under `.localhost` (RFC 6761), a loopback or unspecified address however written, the
 * listen address (HOST), every interface address of the machine when HOST is 0.0.0.0 or ::, the
 * machine's own name, or the host of BASE_URL or of a PUBLIC_DOMAINS entry. Other ports are other
 * servers (a proxy in front is reached by the domains' own names, which the loop check knows apart).
 */
export class InstanceAddresses {
  private readonly port: number;
  /** Names (not addresses) that reach the instance, canonical. */
  private readonly names: ReadonlySet<string>;
  /** HOST when it is one address; undefined when it is every address (0.0.0.0, ::) or a name. */
  private readonly listenAddress: string | undefined;
  private readonly everyInterface: boolean;
  private interfaces: { readonly at: number; readonly addresses: ReadonlySet<string> } | undefined;

  constructor(
    config: Pick<Config, 'host' | 'port' | 'publicDomains'>,
    private readonly machine: MachineInfo = os,
  ) {
    this.port = config.port;
    const names = new Set<string>(['localhost']);
    const add = (raw: string) => {
      const name = canonicalHostname(raw);
      if (name !== undefined && ipAddressOf(name) === undefined) names.add(name);
    };
    add(machine.hostname());
    add(config.host);
    for (const domain of config.publicDomains) add(new URL(domain.urlPrefix).hostname);
    this.names = names;
    const listen = canonicalHostname(config.host);
    const address = listen === undefined ? undefined : ipAddressOf(listen);
    this.everyInterface = address !== undefined && address.range() === 'unspecified';
    this.listenAddress = address !== undefined && !this.everyInterface ? writtenAddress(address) : undefined;
  }

  /** Whether a URL to this endpoint (endpointOf) would be answered by this instance. */
  reaches({ hostname, port }: Endpoint): boolean {
    if (port !== this.port) return false;
    if (this.names.has(hostname) || hostname.endsWith('.localhost')) return true;
    const address = ipAddressOf(hostname);
    if (address === undefined) return false;
    if (isOwnMachine(address) || hostname === this.listenAddress) return true;
    return this.everyInterface && this.interfaceAddresses().has(hostname);
  }

  /** The machine's interface addresses, canonical, read at most every INTERFACES_TTL_MS. */
  private interfaceAddresses(): ReadonlySet<string> {
    const now = Date.now();
    if (this.interfaces === undefined || now - this.interfaces.at >= INTERFACES_TTL_MS) {
      const addresses = new Set<string>();
      for (const list of Object.values(this.machine.networkInterfaces())) {
        for (const entry of list ?? []) {
          const written = canonicalHostname(entry.address);
          if (written !== undefined) addresses.add(written);
        }
      }
      this.interfaces = { at: now, addresses };
    }
    return this.interfaces.addresses;
  }
}
