// The built-in site texts in Chinese and Russian, used until the operator saves their own. Only
// the server reads them (the storefront gets them with the content), so the first load stays small.
import type { ContentTranslations } from './localize'

export const defaultContentTranslations: ContentTranslations = {
  zh: {
    navigation: { products: '产品', support: '支持' },
    hero: {
      title: '移动代理软件，即时交付',
      subtitle:
        '在任意国家运行、轮换和检测 4G、LTE 与 5G 移动代理的工具。使用 {accepted} 付款，几分钟内获得密钥。',
    },
    meta: { title: 'Stablecart — 移动代理软件' },
    support: {
      title: '需要什么帮助？',
      subtitle: '关于订单、许可证密钥或配置的问题？我们的团队全天候为您解答。',
      response: '通常在 2 小时内回复',
      sections: [
        { title: '邮件支持', description: '写信时附上订单号，我们会尽快回复。' },
        { title: '在线聊天', description: '与专家交流代理配置、轮换和国家定向。' },
        { title: '快速响应', description: '大多数问题在几小时内得到解答，无论白天黑夜。' },
        { title: '安全私密', description: '您的订单信息仅用于交付和支持您的购买。' },
      ],
    },
  },
  ru: {
    navigation: { products: 'Товары', support: 'Поддержка' },
    hero: {
      title: 'Программы для мобильных прокси с мгновенной доставкой',
      subtitle:
        'Инструменты для запуска, ротации и проверки мобильных прокси 4G, LTE и 5G в любой стране. Оплатите в {accepted} и получите ключ за несколько минут.',
    },
    meta: { title: 'Stablecart — программы для мобильных прокси' },
    support: {
      title: 'Чем помочь?',
      subtitle: 'Вопросы о заказе, ключе или настройке? Наша команда отвечает круглосуточно.',
      response: 'Обычно в течение 2 часов',
      sections: [
        { title: 'Поддержка по e-mail', description: 'Напишите нам с номером заказа — мы быстро ответим.' },
        {
          title: 'Онлайн-чат',
          description: 'Обсудите со специалистом настройку прокси, ротацию и выбор страны.',
        },
        {
          title: 'Быстрый ответ',
          description: 'На большинство вопросов отвечаем за пару часов, днём и ночью.',
        },
        {
          title: 'Безопасно и конфиденциально',
          description: 'Данные заказа используются только для выдачи и поддержки покупки.',
        },
      ],
    },
  },
}
