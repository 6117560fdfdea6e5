/** Payments wired into the music-api: the provider when its settings are there, else 503 routes. */
import type { FastifyInstance } from 'fastify';
import type { Accounts } from './accounts.js';
import type { AuthHooks } from './auth-hook.js';
import type { MusicConfig } from './config.js';
import type { MusicConnections } from './repositories/connections.js';
import { PrismaPaymentEventRepository } from './repositories/payment-event-repository.js';
import { BullPaymentQueue } from './repositories/payment-queue.js';
import { PrismaPaymentRepository } from './repositories/payment-repository.js';
import { StripeGateway, type PaymentApiEndpoint } from './repositories/stripe-gateway.js';
import type { UserRepository } from './repositories/user-repository.js';
import { registerPaymentRoutes } from './routes/payments.js';
import { PaymentDownloads } from './services/payment-downloads.js';
import { PaymentService } from './services/payment-service.js';
import { PaymentWebhooks } from './services/payment-webhooks.js';

export interface PaymentAppOptions {
  /** Where the provider's API is (default: the provider's own); tests point it at a local stand-in. */
  paymentApi?: PaymentApiEndpoint;
}

export function registerPayments(
  app: FastifyInstance,
  ctx: {
    config: MusicConfig;
    connections: MusicConnections;
    hooks: AuthHooks;
    users: UserRepository;
    nowSeconds: () => number;
    options: PaymentAppOptions;
    accounts: Accounts;
  },
): void {
  const { config, connections } = ctx;
  const gateway = config.payment
    ? new StripeGateway({
        secretKey: config.payment.secretKey,
        webhookSecret: config.payment.webhookSecret,
        ...(ctx.options.paymentApi ? { api: ctx.options.paymentApi } : {}),
      })
    : undefined;
  const repo = new PrismaPaymentRepository(connections.prisma);
  const queue = new BullPaymentQueue(connections.redis, { prefix: config.queuePrefix });
  app.addHook('onClose', () => queue.close());
  registerPaymentRoutes(
    app,
    {
      payments: new PaymentService(
        repo,
        gateway,
        config.mail.publicUrl,
        config.payment?.publishableKey,
        (caller) => ctx.accounts.verification.assertVerified(caller, 'buying or tipping'),
      ),
      downloads: new PaymentDownloads(
        repo,
        connections.stores.originals,
        {
          secret: config.secureLink.secret,
          ttlSeconds: config.secureLink.ttlSeconds,
          nowSeconds: ctx.nowSeconds,
        },
        gateway !== undefined,
      ),
      webhooks: new PaymentWebhooks(gateway, new PrismaPaymentEventRepository(connections.prisma), queue),
      roleOf: async (userId) => (await ctx.users.findById(userId))?.role,
    },
    ctx.hooks,
  );
}
