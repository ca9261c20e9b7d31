import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import { ConfigError, loadConfig } from '../../src/config.js';

function fails(env: Record<string, string>, variable: string) {
  assert.throws(
    () => loadConfig(env),
    (e: unknown) => e instanceof ConfigError && e.message.includes(variable) && !e.message.includes('\n'),
    `${JSON.stringify(env)} should fail naming ${variable}`,
  );
}

describe('loadConfig', () => {
  it('has the documented defaults', () => {
    const config = loadConfig({});
    assert.equal(config.port, 3000);
    assert.equal(config.host, '0.0.0.0');
    assert.deepEqual(config.defaultDomain, { hostname: 'localhost:3000', urlPrefix: 'http://localhost:3000' });
    assert.deepEqual(config.publicDomains, [config.defaultDomain]);
    assert.deepEqual(config.database, { kind: 'sqlite', path: './data/brief.db' });
    assert.equal(config.redirectStatus, 301);
    assert.equal(config.codeLength, 7);
    assert.equal(config.logLevel, 'info');
    assert.ok(Object.isFrozen(config));
  });

  it('derives the default BASE_URL from PORT', () => {
    assert.equal(loadConfig({ PORT: '8080' }).defaultDomain.urlPrefix, 'http://localhost:8080');
  });

  it('reads BASE_URL into the default domain, lower-casing the host', () => {
    const config = loadConfig({ BASE_URL: 'https://Brf.Example.COM' });
    assert.deepEqual(config.defaultDomain, { hostname: 'brf.example.com', urlPrefix: 'https://brf.example.com' });
  });

  it('reads PUBLIC_DOMAINS, https unless a scheme is given, default domain first, duplicates dropped', () => {
    const config = loadConfig({ BASE_URL: 'http://short.test', PUBLIC_DOMAINS: 'a.test, http://b.test:8080 ,,short.test' });
    assert.deepEqual(
      config.publicDomains.map((d) => d.urlPrefix),
      ['http://short.test', 'https://a.test', 'http://b.test:8080'],
    );
  });

  it('reads DATABASE_URL: sqlite:PATH, a plain path, postgres://', () => {
    assert.deepEqual(loadConfig({ DATABASE_URL: 'sqlite:/tmp/x.db' }).database, { kind: 'sqlite', path: '/tmp/x.db' });
    assert.deepEqual(loadConfig({ DATABASE_URL: '/tmp/y.db' }).database, { kind: 'sqlite', path: '/tmp/y.db' });
    assert.deepEqual(loadConfig({ DATABASE_URL: 'postgres://u@h/db' }).database, { kind: 'postgres', url: 'postgres://u@h/db' });
  });

  it('accepts every allowed REDIRECT_STATUS', () => {
    for (const status of [301, 302, 307, 308]) assert.equal(loadConfig({ REDIRECT_STATUS: String(status) }).redirectStatus, status);
  });

  it('throws a one-line ConfigError naming the variable for each bad value', () => {
    fails({ PORT: 'abc' }, 'PORT');
    fails({ PORT: '70000' }, 'PORT');
    fails({ PORT: '-1' }, 'PORT');
    fails({ PORT: '3000.5' }, 'PORT');
    fails({ BASE_URL: 'ftp://x.test' }, 'BASE_URL');
    fails({ BASE_URL: 'http://x.test/path' }, 'BASE_URL');
    fails({ BASE_URL: 'http://' }, 'BASE_URL');
    fails({ PUBLIC_DOMAINS: 'ok.test,http://bad.test/path' }, 'PUBLIC_DOMAINS');
    fails({ PUBLIC_DOMAINS: 'ftp://x.test' }, 'PUBLIC_DOMAINS');
    fails({ DATABASE_URL: 'mysql://x/y' }, 'DATABASE_URL');
    fails({ DATABASE_URL: 'sqlite:' }, 'DATABASE_URL');
    fails({ REDIRECT_STATUS: '303' }, 'REDIRECT_STATUS');
    fails({ REDIRECT_STATUS: '200' }, 'REDIRECT_STATUS');
    fails({ REDIRECT_STATUS: 'permanent' }, 'REDIRECT_STATUS');
    fails({ CODE_LENGTH: '3' }, 'CODE_LENGTH');
    fails({ CODE_LENGTH: 'seven' }, 'CODE_LENGTH');
    fails({ LOG_LEVEL: 'loud' }, 'LOG_LEVEL');
    fails({ REDIS_URL: 'http://x' }, 'REDIS_URL');
    fails({ CHANGE_POLL_MS: '0' }, 'CHANGE_POLL_MS');
  });
});

describe('analytics settings', () => {
  it('has the documented defaults', () => {
    const config = loadConfig({});
    assert.equal(config.analytics, 'full');
    assert.deepEqual(config.trustProxy, { kind: 'off' });
    assert.equal(config.analyticsBufferMax, 100_000);
    assert.equal(config.geoipCityDb, undefined);
  });

  it('reads ANALYTICS', () => {
    for (const level of ['full', 'minimal', 'off'] as const) assert.equal(loadConfig({ ANALYTICS: level }).analytics, level);
    assert.equal(loadConfig({ ANALYTICS: ' minimal ' }).analytics, 'minimal');
  });

  it('reads TRUST_PROXY: off, a hop count, or proxy addresses and CIDRs', () => {
    assert.deepEqual(loadConfig({ TRUST_PROXY: 'off' }).trustProxy, { kind: 'off' });
    assert.deepEqual(loadConfig({ TRUST_PROXY: '0' }).trustProxy, { kind: 'off' });
    assert.deepEqual(loadConfig({ TRUST_PROXY: '2' }).trustProxy, { kind: 'hops', hops: 2 });
    assert.deepEqual(loadConfig({ TRUST_PROXY: '10.0.0.0/8, 192.168.1.7,2001:db8::/32' }).trustProxy, {
      kind: 'list',
      entries: ['10.0.0.0/8', '192.168.1.7', '2001:db8::/32'],
    });
    assert.deepEqual(loadConfig({ TRUST_PROXY: 'loopback,uniquelocal' }).trustProxy, { kind: 'list', entries: ['loopback', 'uniquelocal'] });
    assert.ok(Object.isFrozen(loadConfig({ TRUST_PROXY: '10.0.0.1' }).trustProxy));
  });

  it('reads ANALYTICS_BUFFER_MAX and GEOIP_CITY_DB (a file that exists)', () => {
    assert.equal(loadConfig({ ANALYTICS_BUFFER_MAX: '5' }).analyticsBufferMax, 5);
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'brief-config-')), 'City.mmdb');
    fs.writeFileSync(file, 'x');
    assert.equal(loadConfig({ GEOIP_CITY_DB: file }).geoipCityDb, file);
    fails({ GEOIP_CITY_DB: `${file}.missing` }, 'GEOIP_CITY_DB');
    fails({ GEOIP_CITY_DB: path.dirname(file) }, 'GEOIP_CITY_DB');
    fs.rmSync(path.dirname(file), { recursive: true, force: true });
  });

  it('throws a one-line ConfigError naming the variable for each bad value', () => {
    fails({ ANALYTICS: 'verbose' }, 'ANALYTICS');
    fails({ ANALYTICS: 'FULL' }, 'ANALYTICS');
    fails({ TRUST_PROXY: 'true' }, 'TRUST_PROXY');
    fails({ TRUST_PROXY: '10.0.0.0/33' }, 'TRUST_PROXY');
    fails({ TRUST_PROXY: '10.0.0.1, proxy.example' }, 'TRUST_PROXY');
    fails({ TRUST_PROXY: '-1' }, 'TRUST_PROXY');
    fails({ TRUST_PROXY: '1.5' }, 'TRUST_PROXY');
    fails({ TRUST_PROXY: ',' }, 'TRUST_PROXY');
    fails({ ANALYTICS_BUFFER_MAX: '0' }, 'ANALYTICS_BUFFER_MAX');
    fails({ ANALYTICS_BUFFER_MAX: 'lots' }, 'ANALYTICS_BUFFER_MAX');
  });
});

describe('rate limit and abuse settings', () => {
  it('has the documented defaults', () => {
    const config = loadConfig({});
    assert.equal(config.rateLimitAnon, 30);
    assert.equal(config.rateLimitToken, 600);
    assert.equal(config.rateLimitRead, 1200);
    assert.equal(config.rateLimitPassword, 10);
    assert.equal(config.rateLimitPasswordAddress, 30);
    assert.equal(config.rateLimitDomainVerify, 5);
    assert.equal(config.anonymousShorten, true);
    assert.equal(config.corsOrigins, '*');
    assert.equal(config.blocklistFile, undefined);
  });

  it('reads them, 0 meaning no limit', () => {
    const config = loadConfig({
      RATE_LIMIT_ANON: '0',
      RATE_LIMIT_TOKEN: '5',
      RATE_LIMIT_READ: '0',
      RATE_LIMIT_PASSWORD: '3',
      RATE_LIMIT_PASSWORD_ADDRESS: '0',
      RATE_LIMIT_DOMAIN_VERIFY: '7',
      ANONYMOUS_SHORTEN: 'off',
      CORS_ORIGINS: 'https://App.example, http://localhost:5173/',
    });
    assert.deepEqual(
      [
        config.rateLimitAnon,
        config.rateLimitToken,
        config.rateLimitRead,
        config.rateLimitPassword,
        config.rateLimitPasswordAddress,
        config.rateLimitDomainVerify,
        config.anonymousShorten,
      ],
      [0, 5, 0, 3, 0, 7, false],
    );
    assert.deepEqual(config.corsOrigins, ['https://app.example', 'http://localhost:5173']);
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'brief-config-')), 'blocklist.txt');
    fs.writeFileSync(file, 'phishing.example\n');
    assert.equal(loadConfig({ BLOCKLIST_FILE: file }).blocklistFile, file);
    fs.rmSync(path.dirname(file), { recursive: true, force: true });
  });

  it('throws a one-line ConfigError naming the variable for each bad value', () => {
    fails({ RATE_LIMIT_ANON: '-1' }, 'RATE_LIMIT_ANON');
    fails({ RATE_LIMIT_TOKEN: 'many' }, 'RATE_LIMIT_TOKEN');
    fails({ RATE_LIMIT_READ: '1.5' }, 'RATE_LIMIT_READ');
    fails({ RATE_LIMIT_PASSWORD: '10000000000' }, 'RATE_LIMIT_PASSWORD');
    fails({ RATE_LIMIT_PASSWORD_ADDRESS: 'thirty' }, 'RATE_LIMIT_PASSWORD_ADDRESS');
    fails({ RATE_LIMIT_PASSWORD_ADDRESS: '-1' }, 'RATE_LIMIT_PASSWORD_ADDRESS');
    fails({ RATE_LIMIT_DOMAIN_VERIFY: '2.5' }, 'RATE_LIMIT_DOMAIN_VERIFY');
    fails({ ANONYMOUS_SHORTEN: 'no' }, 'ANONYMOUS_SHORTEN');
    fails({ CORS_ORIGINS: 'app.example' }, 'CORS_ORIGINS');
    fails({ CORS_ORIGINS: 'https://app.example/path' }, 'CORS_ORIGINS');
    fails({ CORS_ORIGINS: 'ftp://app.example' }, 'CORS_ORIGINS');
    fails({ BLOCKLIST_FILE: '/no/such/blocklist.txt' }, 'BLOCKLIST_FILE');
  });
});

describe('loadConfig: domain claims (decision 0019)', () => {
  it('has the documented defaults: 10 domains an account, the system’s DNS servers', () => {
    const config = loadConfig({});
    assert.equal(config.domainsPerAccount, 10);
    assert.equal(config.dnsServers, undefined);
  });

  it('reads DOMAINS_PER_ACCOUNT (0: no claims) and DNS_SERVERS as Node’s resolver takes them', () => {
    assert.equal(loadConfig({ DOMAINS_PER_ACCOUNT: '0' }).domainsPerAccount, 0);
    assert.equal(loadConfig({ DOMAINS_PER_ACCOUNT: '250' }).domainsPerAccount, 250);
    assert.deepEqual(loadConfig({ DNS_SERVERS: '127.0.0.1:5353' }).dnsServers, ['127.0.0.1:5353']);
    assert.deepEqual(loadConfig({ DNS_SERVERS: ' 1.1.1.1 , ::1,[2001:db8::53]:53 ' }).dnsServers, ['1.1.1.1', '::1', '[2001:db8::53]:53']);
  });

  it('throws a one-line ConfigError naming the variable for each bad value', () => {
    for (const value of ['-1', 'ten', '1.5', '100001']) fails({ DOMAINS_PER_ACCOUNT: value }, 'DOMAINS_PER_ACCOUNT');
    for (const value of ['dns.example', '127.0.0.1:0', '127.0.0.1:70000', '[127.0.0.1]:53', '1.1.1.1,', 'http://1.1.1.1', '::1:53:x']) {
      fails({ DNS_SERVERS: value }, 'DNS_SERVERS');
    }
  });
});

describe('loadConfig: ALLOW_URL_CREDENTIALS (decision 0017)', () => {
  it('is off by default, and reads on and off', () => {
    assert.equal(loadConfig({}).allowUrlCredentials, false);
    assert.equal(loadConfig({ ALLOW_URL_CREDENTIALS: 'on' }).allowUrlCredentials, true);
    assert.equal(loadConfig({ ALLOW_URL_CREDENTIALS: ' off ' }).allowUrlCredentials, false);
  });

  it('throws a one-line ConfigError naming the variable for any other value', () => {
    for (const value of ['yes', 'true', '1', 'ON']) fails({ ALLOW_URL_CREDENTIALS: value }, 'ALLOW_URL_CREDENTIALS');
  });
});

describe('loadConfig: connection limits (decision 0020)', () => {
  it('has the documented defaults: 30 s for a request to arrive, 10,000 connections', () => {
    const config = loadConfig({});
    assert.equal(config.bodyTimeoutMs, 30_000);
    assert.equal(config.maxConnections, 10_000);
  });

  it('reads BODY_TIMEOUT_MS and MAX_CONNECTIONS', () => {
    assert.equal(loadConfig({ BODY_TIMEOUT_MS: '1000' }).bodyTimeoutMs, 1000);
    assert.equal(loadConfig({ MAX_CONNECTIONS: '50000' }).maxConnections, 50_000);
  });

  it('throws a one-line ConfigError naming the variable for each bad value', () => {
    for (const value of ['0', '999', '3600001', '30s', '-1', '1.5']) fails({ BODY_TIMEOUT_MS: value }, 'BODY_TIMEOUT_MS');
    for (const value of ['0', '1000001', 'many', '-5']) fails({ MAX_CONNECTIONS: value }, 'MAX_CONNECTIONS');
  });
});

describe('loadConfig: SHUTDOWN_GRACE_MS (decision 0022)', () => {
  it('is 10 s by default, and takes 0 (cut at once) to an hour', () => {
    assert.equal(loadConfig({}).shutdownGraceMs, 10_000);
    assert.equal(loadConfig({ SHUTDOWN_GRACE_MS: '0' }).shutdownGraceMs, 0);
    assert.equal(loadConfig({ SHUTDOWN_GRACE_MS: ' 3600000 ' }).shutdownGraceMs, 3_600_000);
  });

  it('throws a one-line ConfigError naming the variable for each bad value', () => {
    for (const value of ['3600001', '10s', '-1', '1.5', 'never']) fails({ SHUTDOWN_GRACE_MS: value }, 'SHUTDOWN_GRACE_MS');
  });
});

describe('loadConfig: METRICS_TOKEN (decision 0022)', () => {
  it('is none by default, and takes a token of 16 to 256 token characters', () => {
    assert.equal(loadConfig({}).metricsToken, undefined);
    assert.equal(loadConfig({ METRICS_TOKEN: ' 0123456789abcdef ' }).metricsToken, '0123456789abcdef');
  });

  it('throws a one-line ConfigError naming the variable for a short or odd token', () => {
    for (const value of ['short', 'with a space in it ok', 'ä'.repeat(20), 'x'.repeat(257)]) fails({ METRICS_TOKEN: value }, 'METRICS_TOKEN');
  });
});

// STRICT_HOSTS and FORWARD_QUERY (issue 25 items 1 and 7, decision 0015).
describe('loadConfig: hosts and query forwarding (decision 0015)', () => {
  it('has the documented defaults: any Host answers as the default domain, query strings forwarded', () => {
    const config = loadConfig({});
    assert.equal(config.strictHosts, false);
    assert.equal(config.forwardQuery, true);
  });

  it('reads on and off', () => {
    assert.equal(loadConfig({ STRICT_HOSTS: 'on' }).strictHosts, true);
    assert.equal(loadConfig({ STRICT_HOSTS: ' off ' }).strictHosts, false);
    assert.equal(loadConfig({ FORWARD_QUERY: 'off' }).forwardQuery, false);
    assert.equal(loadConfig({ FORWARD_QUERY: 'on' }).forwardQuery, true);
  });

  it('throws a one-line ConfigError naming the variable for any other value', () => {
    for (const value of ['yes', 'true', '1', 'ON', 'strict']) fails({ STRICT_HOSTS: value }, 'STRICT_HOSTS');
    for (const value of ['no', 'false', '0', 'Off']) fails({ FORWARD_QUERY: value }, 'FORWARD_QUERY');
  });
});

describe('loadConfig: single sign-on (decision 0031)', () => {
  const sso = { OIDC_ISSUER: 'https://accounts.example.com', OIDC_CLIENT_ID: 'brief' };

  it('is off unless OIDC_ISSUER and OIDC_CLIENT_ID are both set; OIDC_AUTO_CREATE is off by default', () => {
    assert.equal(loadConfig({}).oidc, undefined);
    assert.equal(loadConfig({ OIDC_AUTO_CREATE: 'off' }).oidc, undefined);
    assert.deepEqual(loadConfig(sso).oidc, { ...{ issuer: sso.OIDC_ISSUER, clientId: 'brief' }, clientSecret: undefined, autoCreate: false });
    const full = loadConfig({ ...sso, OIDC_CLIENT_SECRET: ' s3cret ', OIDC_AUTO_CREATE: 'on' }).oidc;
    assert.deepEqual(full, { issuer: sso.OIDC_ISSUER, clientId: 'brief', clientSecret: 's3cret', autoCreate: true });
    assert.ok(Object.isFrozen(full));
  });

  it('takes an https issuer with a path, and http only on a loopback host', () => {
    assert.equal(loadConfig({ ...sso, OIDC_ISSUER: 'https://login.example.com/realms/team' }).oidc?.issuer, 'https://login.example.com/realms/team');
    for (const local of ['http://localhost:8080', 'http://127.0.0.1:9000/', 'http://[::1]:9000']) {
      assert.equal(loadConfig({ ...sso, OIDC_ISSUER: local }).oidc?.issuer, local);
    }
  });

  it('stops the start naming OIDC_ISSUER when it is not an https URL', () => {
    for (const issuer of [
      'accounts.example.com',
      'not a url',
      'ftp://accounts.example.com',
      'http://accounts.example.com',
      'https://a.example.com/?x=1',
      'https://u:p@a.example.com',
    ]) {
      fails({ ...sso, OIDC_ISSUER: issuer }, 'OIDC_ISSUER');
    }
  });

  it('stops the start naming what is missing from a half-set configuration', () => {
    fails({ OIDC_ISSUER: sso.OIDC_ISSUER }, 'OIDC_CLIENT_ID');
    fails({ OIDC_CLIENT_ID: 'brief' }, 'OIDC_ISSUER');
    fails({ OIDC_CLIENT_SECRET: 'secret' }, 'OIDC_ISSUER and OIDC_CLIENT_ID');
    fails({ OIDC_AUTO_CREATE: 'on' }, 'OIDC_ISSUER and OIDC_CLIENT_ID');
    fails({ ...sso, OIDC_AUTO_CREATE: 'yes' }, 'OIDC_AUTO_CREATE');
  });
});

describe('loadConfig: WEBHOOK_ALLOW_HOSTS (decision 0044)', () => {
  it('is empty by default, and reads host names and addresses, lower-cased', () => {
    assert.deepEqual(loadConfig({}).webhookAllowHosts, []);
    assert.deepEqual(loadConfig({ WEBHOOK_ALLOW_HOSTS: ' LocalHost , 127.0.0.1,[::1], hooks.internal ' }).webhookAllowHosts, [
      'localhost',
      '127.0.0.1',
      '[::1]',
      'hooks.internal',
    ]);
  });

  it('throws naming the variable for an entry with a scheme, a port or a path', () => {
    for (const value of ['http://localhost', 'localhost:3000', 'hooks.internal/x', 'a b'])
      fails({ WEBHOOK_ALLOW_HOSTS: value }, 'WEBHOOK_ALLOW_HOSTS');
  });
});
