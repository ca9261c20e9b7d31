// `brief user create|list|password|reset|remove` as real processes beside a running server: a first user
// made with a password from standard input signs in; one made without gets a one-time link that works once;
// bad input is one line and makes nothing; a password set by the operator or through a reset link ends the
// person's sessions; a removed user's sessions end at once.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { request, runCli, ServerProcess } from '../scale-support/server-process.js';

const ORIGIN = 'http://short.test';

describe('people from the CLI', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'brief-user-cli-'));
  // Many sign-ins of one email within a minute here: the per-email limit is the HTTP tests' to check.
  const env = { DATABASE_URL: `sqlite:${path.join(dir, 'brief.db')}`, BASE_URL: ORIGIN, RATE_LIMIT_SIGN_IN: '100' };
  let server: ServerProcess;

  const cli = async (args: string[], input?: string) => {
    const result = await runCli(args, env, input);
    assert.equal(result.code, 0, `brief ${args.join(' ')}: ${result.stderr}`);
    return result.stdout;
  };
  const cliFails = async (pattern: RegExp, args: string[], input?: string) => {
    const result = await runCli(args, env, input);
    assert.equal(result.code, 1, `brief ${args.join(' ')} should fail: ${result.stdout}`);
    assert.match(result.stderr.trim(), pattern);
    assert.equal(result.stderr.trim().split('\n').length, 1, 'one line');
  };
  const post = (url: string, body: unknown, headers: Record<string, string> = {}) =>
    request(server.port, 'POST', url, { 'content-type': 'application/json', origin: ORIGIN, ...headers }, JSON.stringify(body));
  const signIn = async (email: string, password: string) => {
    const response = await post('/auth/sign-in', { email, password });
    assert.equal(response.status, 200, response.body);
    const cookie = /brief_session=[A-Za-z0-9_-]+/.exec(String(response.headers['set-cookie']))![0];
    return { cookie, me: response.json() };
  };

  before(async () => {
    server = await ServerProcess.start(env);
  });
  after(async () => {
    await server?.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('makes a first user with a password from standard input, owner of a workspace named after the email', async () => {
    const out = await cli(['user', 'create', 'ada@example.com', '--password-stdin'], 'a very good password\n');
    assert.match(out, /created user ada@example.com \(owner of ada@example.com\)/);
    const { me } = await signIn('ada@example.com', 'a very good password');
    assert.equal(me.workspace.name, 'ada@example.com');
    assert.equal(me.workspace.role, 'owner');
  });

  it('prints a one-time link without --password-stdin; the link sets the password, once', async () => {
    const out = await cli(['user', 'create', 'bob@example.com', '--role', 'viewer', '--workspace', 'ada@example.com']);
    const link = out.trim().split('\n').at(-1)!;
    assert.match(link, /^http:\/\/short\.test\/app\/invitation#brf_/);
    const token = link.slice(link.indexOf('#') + 1);
    const accepted = await post('/auth/invitation/accept', { token, password: 'bobs long password' });
    assert.equal(accepted.status, 200, accepted.body);
    assert.equal(accepted.json().workspace.role, 'viewer');
    const again = await post('/auth/invitation/accept', { token, password: 'another long password' });
    assert.equal(again.status, 422);
    const listed = await cli(['user', 'list']);
    assert.match(listed, /ada@example\.com\s+ada@example\.com:owner\s+set/);
    assert.match(listed, /bob@example\.com\s+ada@example\.com:viewer\s+set/);
  });

  it('refuses bad input in one line and makes nothing', async () => {
    const users = await cli(['user', 'list']);
    const accounts = await cli(['account', 'list']);
    await cliFails(/email field must be an email address/, ['user', 'create', 'not-an-email', '--password-stdin'], 'a very good password');
    await cliFails(/at least 10 characters/, ['user', 'create', 'carol@example.com', '--password-stdin', '--workspace', 'newteam'], 'short');
    await cliFails(/role field must be one of viewer, member, admin, owner/, ['user', 'create', 'carol@example.com', '--role', 'king']);
    await cliFails(
      /ada@example\.com is already a member of ada@example\.com \(owner\)/,
      ['user', 'create', 'ADA@example.com', '--password-stdin'],
      'a very good password',
    );
    await cliFails(/No user with the email nobody@example.com/, ['user', 'remove', 'nobody@example.com']);
    await cliFails(/ada@example\.com is the last owner of ada@example\.com: make someone else owner first/, ['user', 'remove', 'ada@example.com']);
    assert.equal(await cli(['user', 'list']), users);
    assert.equal(await cli(['account', 'list']), accounts);
  });

  it('adds an existing email to another workspace, keeping its password', async () => {
    const out = await cli(
      ['user', 'create', 'Ada@Example.com', '--workspace', 'second', '--role', 'viewer', '--password-stdin'],
      'another password!',
    );
    assert.match(out, /added existing user Ada@Example\.com to second as viewer \(their password is unchanged\)/);
    assert.match(await cli(['user', 'list']), /ada@example\.com\s+ada@example\.com:owner second:viewer\s+set/);
    const { me } = await signIn('ada@example.com', 'a very good password');
    assert.deepEqual(
      me.workspaces.map((w: { name: string; role: string }) => `${w.name}:${w.role}`),
      ['ada@example.com:owner', 'second:viewer'],
    );
  });

  it('sets a password from standard input (brief user password): sessions end, the old password stops at once', async () => {
    const { cookie } = await signIn('ada@example.com', 'a very good password');
    await cliFails(/pass --password-stdin/, ['user', 'password', 'ada@example.com']);
    await cliFails(/at least 10 characters/, ['user', 'password', 'ada@example.com', '--password-stdin'], 'short');
    await cliFails(/No user with the email nobody@example.com/, ['user', 'password', 'nobody@example.com', '--password-stdin'], 'long enough pw');
    assert.equal((await request(server.port, 'GET', '/auth/me', { cookie })).status, 200, 'nothing changed yet');
    const out = await cli(['user', 'password', 'ada@example.com', '--password-stdin'], 'the operator set this\n');
    assert.match(out, /set the password of ada@example\.com: their sessions have ended/);
    assert.equal((await request(server.port, 'GET', '/auth/me', { cookie })).status, 401);
    assert.equal((await post('/auth/sign-in', { email: 'ada@example.com', password: 'a very good password' })).status, 401);
    await signIn('ada@example.com', 'the operator set this');
  });

  it('prints a one-time reset link valid an hour (brief user reset) that sets a new password once', async () => {
    const { cookie } = await signIn('ada@example.com', 'the operator set this');
    const out = await cli(['user', 'reset', 'ada@example.com']);
    assert.match(out, /password reset for ada@example\.com, until \d{4}-/);
    const link = out.trim().split('\n').at(-1)!;
    assert.match(link, /^http:\/\/short\.test\/app\/reset-password#brf_/);
    const token = link.slice(link.indexOf('#') + 1);
    const reset = await post('/auth/password/reset', { token, newPassword: 'reset by the link' });
    assert.equal(reset.status, 200, reset.body);
    assert.equal((await request(server.port, 'GET', '/auth/me', { cookie })).status, 401, 'every session ends');
    await signIn('ada@example.com', 'reset by the link');
    const again = await post('/auth/password/reset', { token, newPassword: 'and once more please' });
    assert.equal(again.status, 422);
    await cliFails(/No user with the email nobody@example.com/, ['user', 'reset', 'nobody@example.com']);
  });

  it('removes a user: their session ends at once', async () => {
    const { cookie } = await signIn('bob@example.com', 'bobs long password');
    assert.equal((await request(server.port, 'GET', '/auth/me', { cookie })).status, 200);
    await cli(['user', 'remove', 'bob@example.com']);
    assert.equal((await request(server.port, 'GET', '/auth/me', { cookie })).status, 401);
    assert.doesNotMatch(await cli(['user', 'list']), /bob@example\.com/);
  });
});
