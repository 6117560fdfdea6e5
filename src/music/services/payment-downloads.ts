/**
 * The original file of a track for those entitled to it: its owner, admins, and buyers whose
 * purchase is paid (a refund or dispute revokes it). A signed link (download-link.ts) carries who
 * asked and until when; entitlement is checked again when the link is used.
 */
import type { AuthContext } from '../auth-context.js';
import {
  downloadLinkExpired,
  downloadLinkInvalid,
  downloadNotAllowed,
  noOriginal,
  paymentsNotConfigured,
  paymentTrackNotFound,
} from '../errors/payments.js';
import type { PaymentRepository, PaymentTrack } from '../repositories/payment-repository.js';
import type { ObjectBody, ObjectStore } from '../repositories/object-store/object-store.js';
import { downloadPath, verifyDownload, type DownloadQuery } from './download-link.js';
import { originalServedType, storedBytesHeaders } from './stored-media.js';
import { maySee } from './visibility-policy.js';

export interface DownloadSigner {
  secret: string;
  ttlSeconds: number;
  nowSeconds: () => number;
}

export interface DownloadAnswer {
  headers: Record<string, string>;
  body: ObjectBody['body'];
}

export class PaymentDownloads {
  constructor(
    private readonly repo: PaymentRepository,
    private readonly originals: ObjectStore,
    private readonly signer: DownloadSigner,
    private readonly enabled: boolean,
  ) {}

  private async entitled(userId: string, role: AuthContext['role'], track: PaymentTrack): Promise<boolean> {
    if (role === 'admin' || track.ownerUserId === userId) return true;
    return this.repo.hasBought(userId, track.id);
  }

  /** A fresh signed link for the caller, or 403 when they may not download. */
  async link(caller: AuthContext, trackId: string) {
    if (!this.enabled) throw paymentsNotConfigured();
    const track = await this.repo.track(trackId);
    if (!track || !maySee('read', caller, track)) throw paymentTrackNotFound();
    if (!(await this.entitled(caller.userId, caller.role, track))) throw downloadNotAllowed();
    if (!track.original) throw noOriginal();
    const expires = Math.floor(this.signer.nowSeconds()) + this.signer.ttlSeconds;
    return {
      url: downloadPath({ trackId, userId: caller.userId, expires }, this.signer.secret),
      expires_at: new Date(expires * 1000).toISOString(),
    };
  }

  /** The bytes behind a signed link, when its holder is still entitled. */
  async download(
    trackId: string,
    query: DownloadQuery,
    roleOf: (userId: string) => Promise<AuthContext['role'] | undefined>,
  ): Promise<DownloadAnswer> {
    if (!this.enabled) throw paymentsNotConfigured();
    const checked = verifyDownload(trackId, query, this.signer.secret, this.signer.nowSeconds());
    if (checked.verdict === 'expired') throw downloadLinkExpired();
    if (checked.verdict === 'forbidden' || !checked.userId) throw downloadLinkInvalid();
    const track = await this.repo.track(trackId);
    const role = await roleOf(checked.userId);
    if (!track || role === undefined) throw downloadNotAllowed();
    if (!(await this.entitled(checked.userId, role, track))) throw downloadNotAllowed();
    if (!track.original) throw noOriginal();
    const object = await this.originals.get(track.original.objectKey);
    if (!object) throw noOriginal();
    return {
      headers: {
        ...storedBytesHeaders(originalServedType(track.original.contentType), {
          attachment: { filename: track.original.filename },
        }),
        'content-length': String(object.size),
        'cache-control': 'private, no-store',
      },
      body: object.body,
    };
  }
}
