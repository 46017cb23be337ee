/**
 * In-memory MessageStatsStore: the counters as the SQLite triggers keep them (insert, a send turning failed), fed by
 * MemoryMessageStore. Nothing is pruned: a fake lives for one test.
 */
import type { Message } from '#shared/domain/message.js';
import {
  addHour,
  type ChatActivity,
  dayOf,
  type HourCounts,
  hourOf,
  type MessageTotals,
  noTotals,
  statsTime,
  type TopChatWindow,
} from '#shared/domain/message-stats.js';
import type { MessageStatsStore } from '#shared/ports/message-stats-store.port.js';

interface ChatDay {
  sessionId: string;
  chatId: string;
  day: number;
  count: number;
  lastActive: number;
}

/** The counters in Maps. */
export class MemoryMessageStats implements MessageStatsStore {
  private readonly totalsBySession = new Map<string, MessageTotals>();
  private readonly hoursByKey = new Map<string, HourCounts>();
  private readonly chatDays = new Map<string, ChatDay>();

  /** Counts a stored message. */
  record(message: Message): void {
    const failed = message.direction === 'outgoing' && message.status === 'failed' ? 1 : 0;
    const add = (counts: MessageTotals) => {
      counts.outgoing += message.direction === 'outgoing' ? 1 : 0;
      counts.incoming += message.direction === 'incoming' ? 1 : 0;
      counts.failed += failed;
    };
    add(this.totalsOf(message.sessionId));
    const hour = this.hourOf(message);
    add(hour);
    hour.byType[message.type] = (hour.byType[message.type] ?? 0) + 1;
    const time = statsTime(message);
    const key = JSON.stringify([message.sessionId, message.chatId, dayOf(time)]);
    const chat = this.chatDays.get(key) ?? {
      sessionId: message.sessionId,
      chatId: message.chatId,
      day: dayOf(time),
      count: 0,
      lastActive: time,
    };
    chat.count += 1;
    chat.lastActive = Math.max(chat.lastActive, time);
    this.chatDays.set(key, chat);
  }

  /** Counts an outgoing message whose send failed (`message` as it was before). */
  recordFailed(message: Message): void {
    if (message.direction !== 'outgoing') return;
    this.totalsOf(message.sessionId).failed += 1;
    this.hourOf(message).failed += 1;
  }

  async totals(sessionIds: readonly string[]): Promise<Map<string, MessageTotals>> {
    const found = new Map<string, MessageTotals>();
    for (const id of sessionIds) {
      const totals = this.totalsBySession.get(id);
      if (totals) found.set(id, { ...totals });
    }
    return found;
  }

  async hours(sessionIds: readonly string[], fromHour: number, toHour: number): Promise<HourCounts[]> {
    return [...this.hoursByKey.values()]
      .filter((h) => sessionIds.includes(h.sessionId) && h.hour >= fromHour && h.hour <= toHour)
      .map((h) => ({ ...h, byType: { ...h.byType } }));
  }

  async days(sessionIds: readonly string[], fromDay: number, toDay: number): Promise<HourCounts[]> {
    const byDay = new Map<string, HourCounts>();
    for (const hour of await this.hours(sessionIds, fromDay * 24, toDay * 24 + 23)) {
      const first = Math.floor(hour.hour / 24) * 24;
      const key = JSON.stringify([hour.sessionId, first]);
      const day = byDay.get(key) ?? { sessionId: hour.sessionId, hour: first, ...noTotals(), byType: {} };
      addHour(day, hour);
      byDay.set(key, day);
    }
    return [...byDay.values()];
  }

  async topChats(
    sessionIds: readonly string[],
    window: { days: TopChatWindow; today: number },
    limit: number,
  ): Promise<ChatActivity[]> {
    const fromDay = window.today - window.days + 1;
    const byChat = new Map<string, ChatActivity>();
    for (const day of this.chatDays.values()) {
      if (!sessionIds.includes(day.sessionId) || day.day < fromDay) continue;
      const key = JSON.stringify([day.sessionId, day.chatId]);
      const chat = byChat.get(key) ?? {
        sessionId: day.sessionId,
        chatId: day.chatId,
        count: 0,
        lastActive: 0,
      };
      chat.count += day.count;
      chat.lastActive = Math.max(chat.lastActive, day.lastActive);
      byChat.set(key, chat);
    }
    return [...byChat.values()]
      .sort((a, b) => b.count - a.count || b.lastActive - a.lastActive || (a.chatId < b.chatId ? -1 : 1))
      .slice(0, limit);
  }

  async deleteBySession(sessionId: string): Promise<void> {
    this.totalsBySession.delete(sessionId);
    for (const [key, hour] of this.hoursByKey) if (hour.sessionId === sessionId) this.hoursByKey.delete(key);
    for (const [key, day] of this.chatDays) if (day.sessionId === sessionId) this.chatDays.delete(key);
  }

  private totalsOf(sessionId: string): MessageTotals {
    let totals = this.totalsBySession.get(sessionId);
    if (!totals) {
      totals = noTotals();
      this.totalsBySession.set(sessionId, totals);
    }
    return totals;
  }

  private hourOf(message: Message): HourCounts {
    const hour = hourOf(statsTime(message));
    const key = JSON.stringify([message.sessionId, hour]);
    let counts = this.hoursByKey.get(key);
    if (!counts) {
      counts = { sessionId: message.sessionId, hour, ...noTotals(), byType: {} };
      this.hoursByKey.set(key, counts);
    }
    return counts;
  }
}
