// Brief's signatures as a Standard Webhooks receiver checks them: with the `standardwebhooks` library itself.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Webhook } from 'standardwebhooks';
import { newSecret, signature, webhookHeaders } from '../../src/webhooks/webhook-signature.js';

const body = JSON.stringify({ type: 'link.created', timestamp: '2026-11-28T09:00:00.000Z', data: { id: 'lnk', url: 'https://example.com/' } });

describe('webhook signatures', () => {
  it('makes secrets whsec_ and 32 random bytes', () => {
    const secret = newSecret();
    assert.match(secret, /^whsec_[A-Za-z0-9+/]{43}=$/);
    assert.equal(Buffer.from(secret.slice(6), 'base64').length, 32);
    assert.notEqual(newSecret(), secret);
  });

  it('is verified by the standardwebhooks library, and fails it when the body, id or secret differ', () => {
    const secret = newSecret();
    const headers = webhookHeaders([secret], 'msg_2Lw', new Date(), body);
    assert.deepEqual(new Webhook(secret).verify(body, headers), JSON.parse(body));
    assert.throws(() => new Webhook(secret).verify(`${body} `, headers));
    assert.throws(() => new Webhook(secret).verify(body, { ...headers, 'webhook-id': 'msg_other' }));
    assert.throws(() => new Webhook(newSecret()).verify(body, headers));
  });

  it('signs with both secrets while one is rotated: a receiver holding either accepts', () => {
    const [current, previous] = [newSecret(), newSecret()];
    const headers = webhookHeaders([current, previous], 'msg_rot', new Date(), body);
    assert.equal(headers['webhook-signature']?.split(' ').length, 2);
    for (const secret of [current, previous]) assert.deepEqual(new Webhook(secret).verify(body, headers), JSON.parse(body));
    assert.throws(() => new Webhook(newSecret()).verify(body, headers));
  });

  it('matches the specification’s example signature', () => {
    // From the Standard Webhooks specification (and the standardwebhooks library's own tests).
    const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
    const example = '{"test": 2432232314}';
    assert.equal(signature(secret, 'msg_p5jXN8AQM9LWM0D4loKWxJek', 1614265330, example), 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=');
    assert.equal(
      new Webhook(secret).sign('msg_p5jXN8AQM9LWM0D4loKWxJek', new Date(1614265330_000), example),
      signature(secret, 'msg_p5jXN8AQM9LWM0D4loKWxJek', 1614265330, example),
    );
  });
});
