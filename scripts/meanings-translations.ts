// The committing meanings' button words in the languages whose catalogs leave them out (the shipped
// vocabulary had Korean 삭제 and 주문 but not 결제, 구매 or 송금): for each language, the verbs (as a
// button says them: infinitive, imperative, polite form) and the nouns a button uses for the act
// ("결제", "Zahlung"), by class. From standard bilingual dictionaries' entries for the English verbs of
// each class; a word that is also an ordinary label is left out (Italian "Ordina" sorts, Russian
// "Перевести" translates, Chinese 应用 is an "app"). Scripts without spaces match as substrings.
// Read by scripts/build-meanings.ts into data/meanings.json.

type Classes = { money: string; data: string; destroys: string; fixes: string };

const PORTUGUESE: Classes = {
  money:
    "pagar|pague|pagamento|comprar|compre|compra|encomendar|fazer pedido|finalizar compra|reservar|reserve|reserva|licitar|doar|doação|assinar|assinatura|sacar|saque|transferir|transferência|gorjeta",
  data: "enviar|envie|envio|submeter|publicar|publique|partilhar|compartilhar|exportar|imprimir|sincronizar|encaminhar",
  destroys:
    "apagar|apague|excluir|exclua|eliminar|remover|remova|apagar tudo|limpar|truncar|sobrescrever|substituir|forçar|descartar|desinstalar|formatar|revogar|encerrar|terminar|destruir",
  fixes:
    "confirmar|confirme|aplicar|aplique|submeter|assinar|aprovar|aceitar|aceite|instalar|mesclar|implantar|autorizar",
};

const CHINESE_SIMPLIFIED: Classes = {
  money:
    "支付|付款|付费|购买|订购|下单|结账|预订|预约|转账|汇款|出价|竞价|捐赠|捐款|订阅|提现|取款|打赏|充值",
  data: "发送|提交|发布|分享|上传|导出|打印|同步|转发",
  destroys: "删除|移除|清除|抹除|擦除|清空|截断|覆盖|强制|丢弃|卸载|格式化|撤销|吊销|终止|销毁|注销",
  fixes: "确认|套用|签署|签名|批准|接受|安装|合并|部署|授权|确定",
};

const CHINESE_TRADITIONAL: Classes = {
  money:
    "支付|付款|付費|購買|訂購|下單|結帳|預訂|預約|轉帳|匯款|出價|競價|捐贈|捐款|訂閱|提現|提款|打賞|儲值",
  data: "傳送|發送|提交|發佈|發布|分享|上傳|匯出|導出|列印|同步|轉寄",
  destroys: "刪除|移除|清除|抹除|擦除|清空|截斷|覆蓋|覆寫|強制|丟棄|解除安裝|格式化|撤銷|吊銷|終止|銷毀|註銷",
  fixes: "確認|套用|簽署|簽名|批准|核准|接受|安裝|合併|部署|授權|確定",
};

const table: Record<string, Classes> = {
  ko: {
    money: "결제|지불|지급|구매|구입|주문|예약|송금|이체|입찰|기부|후원|구독|출금|인출|충전|체크아웃",
    data: "전송|보내기|제출|게시|발행|공유|업로드|내보내기|인쇄|동기화|전달",
    destroys: "삭제|지우기|제거|소거|비우기|초기화|포맷|덮어쓰기|강제|폐기|해지|탈퇴|철회|파기",
    fixes: "확정|승인|적용|서명|설치|병합|배포|동의|수락|커밋",
  },
  ja: {
    money:
      "支払|支払い|お支払い|払う|決済|購入|買う|注文|予約|送金|振込|振り込み|入札|寄付|購読|出金|引き出し|チェックアウト|課金|チャージ",
    data: "送信|送る|投稿|共有|アップロード|エクスポート|印刷|同期|転送|提出|公開する",
    destroys:
      "削除|消去|抹消|破棄|アンインストール|フォーマット|初期化|上書き|強制|切り詰め|ワイプ|空にする|失効|解約|退会",
    fixes: "確定|承認|適用|署名|インストール|マージ|デプロイ|同意|許可|コミット",
  },
  zh_CN: CHINESE_SIMPLIFIED,
  zh_TW: CHINESE_TRADITIONAL,
  zh_HK: CHINESE_TRADITIONAL,
  de: {
    money:
      "bezahlen|zahlen|zahle|zahlung|jetzt bezahlen|kaufen|kaufe|kauf|bestellen|bestelle|bestellung|zur kasse|buchen|buche|buchung|reservieren|reservierung|bieten|gebot|spenden|spende|abonnieren|abonnement|abheben|abhebung|überweisen|überweisung|trinkgeld",
    data: "senden|sende|absenden|versenden|einreichen|abschicken|veröffentlichen|posten|teilen|hochladen|exportieren|drucken|synchronisieren|weiterleiten",
    destroys:
      "löschen|lösche|entfernen|entferne|tilgen|leeren|bereinigen|abschneiden|kürzen|überschreiben|erzwingen|verwerfen|deinstallieren|formatieren|widerrufen|beenden|kündigen|zerstören|vernichten",
    fixes:
      "bestätigen|bestätige|anwenden|übernehmen|festschreiben|unterschreiben|signieren|genehmigen|akzeptieren|annehmen|installieren|zusammenführen|bereitstellen|autorisieren",
  },
  fr: {
    money:
      "payer|payez|paiement|régler|acheter|achetez|achat|commander|commandez|commande|passer la commande|réserver|réservez|réservation|enchérir|enchère|faire un don|s'abonner|abonner|abonnement|retirer|retrait|virer|virement|transférer|pourboire",
    data: "envoyer|envoyez|envoi|soumettre|publier|publiez|partager|téléverser|téléverser|exporter|imprimer|synchroniser|transférer",
    destroys:
      "supprimer|supprimez|effacer|effacez|retirer|vider|purger|tronquer|écraser|forcer|abandonner|désinstaller|formater|révoquer|résilier|terminer|détruire",
    fixes:
      "confirmer|confirmez|appliquer|appliquez|valider|valide|signer|approuver|accepter|acceptez|installer|fusionner|déployer|autoriser",
  },
  es: {
    money:
      "pagar|pague|paga|pago|comprar|compre|compra|hacer pedido|realizar pedido|reservar|reserve|reserva|pujar|puja|ofertar|donar|donación|suscribirse|suscribir|suscripción|retirar|retiro|transferir|transferencia|propina",
    data: "enviar|envíe|envío|someter|publicar|publique|compartir|exportar|imprimir|sincronizar|reenviar",
    destroys:
      "eliminar|elimine|borrar|borre|suprimir|quitar|vaciar|purgar|truncar|sobrescribir|forzar|descartar|desinstalar|formatear|revocar|terminar|destruir|dar de baja",
    fixes:
      "confirmar|confirme|aplicar|aplique|firmar|aprobar|aceptar|acepte|instalar|fusionar|desplegar|autorizar",
  },
  it: {
    money:
      "paga|pagare|pagamento|acquista|acquistare|acquisto|compra|comprare|effettua ordine|ordinare|prenota|prenotare|prenotazione|fai un'offerta|dona|donare|donazione|abbonati|abbonamento|preleva|prelievo|trasferisci|bonifico|mancia",
    data: "invia|inviare|invio|pubblica|pubblicare|condividi|condividere|esporta|stampa|sincronizza|inoltra",
    destroys:
      "elimina|eliminare|cancella|cancellare|rimuovi|rimuovere|svuota|tronca|sovrascrivi|forza|scarta|disinstalla|formatta|revoca|termina|distruggi|disdici",
    fixes:
      "conferma|confermare|applica|applicare|firma|approva|accetta|accettare|installa|unisci|distribuisci|autorizza",
  },
  pt: PORTUGUESE,
  pt_BR: PORTUGUESE,
  ru: {
    money:
      "оплатить|оплата|заплатить|платёж|платеж|купить|покупка|заказать|оформить заказ|забронировать|бронирование|сделать ставку|ставка|пожертвовать|пожертвование|подписаться|подписка|вывести средства|перевести деньги|перевод средств|чаевые",
    data: "отправить|отправка|передать|опубликовать|поделиться|выгрузить|экспортировать|экспорт|печать|напечатать|синхронизировать|переслать",
    destroys:
      "удалить|удаление|стереть|очистить|уничтожить|обрезать|перезаписать|принудительно|отбросить|удалить программу|форматировать|отозвать|завершить|расторгнуть|аннулировать",
    fixes:
      "подтвердить|применить|подписать|одобрить|утвердить|принять|установить|объединить|развернуть|авторизовать",
  },
  uk: {
    money:
      "оплатити|оплата|сплатити|платіж|купити|покупка|замовити|замовлення|забронювати|бронювання|зробити ставку|пожертвувати|підписатися|підписка|вивести кошти|переказати|переказ",
    data: "надіслати|надсилання|відправити|опублікувати|публікація|поділитися|вивантажити|експортувати|друкувати|синхронізувати|переслати",
    destroys:
      "видалити|стерти|очистити|знищити|обрізати|перезаписати|примусово|відкинути|форматувати|відкликати|завершити",
    fixes: "підтвердити|застосувати|підписати|схвалити|прийняти|встановити|об'єднати|розгорнути|авторизувати",
  },
  pl: {
    money:
      "zapłać|zapłacić|płatność|kup|kupić|zakup|zamów|zamówić|zamówienie|zarezerwuj|rezerwacja|licytuj|złóż ofertę|przekaż darowiznę|darowizna|wpłać|subskrybuj|subskrypcja|wypłać|wypłata|przelej|przelew|napiwek",
    data: "wyślij|wysłać|prześlij|opublikuj|udostępnij|eksportuj|drukuj|synchronizuj",
    destroys:
      "usuń|usunąć|skasuj|wymaż|wyczyść|opróżnij|obetnij|nadpisz|wymuś|odrzuć|odinstaluj|sformatuj|unieważnij|zakończ|zniszcz",
    fixes: "potwierdź|zastosuj|podpisz|zatwierdź|akceptuj|zaakceptuj|zainstaluj|scal|wdróż|autoryzuj",
  },
  nl: {
    money:
      "betalen|betaal|betaling|kopen|koop|aankoop|bestellen|bestel|bestelling|afrekenen|boeken|boek nu|reserveren|reserveer|bieden|bod|doneren|doneer|donatie|abonneren|abonnement|opnemen|opname|overmaken|overboeking|fooi",
    data: "verzenden|verstuur|versturen|indienen|publiceren|publiceer|delen|uploaden|exporteren|afdrukken|synchroniseren|doorsturen",
    destroys:
      "verwijderen|verwijder|wissen|wis|legen|leegmaken|afkappen|overschrijven|forceren|verwerpen|de-installeren|formatteren|intrekken|beëindigen|opzeggen|vernietigen",
    fixes:
      "bevestigen|bevestig|toepassen|ondertekenen|goedkeuren|accepteren|installeren|samenvoegen|uitrollen|autoriseren",
  },
  sv: {
    money:
      "betala|betalning|köp|köpa|beställ|beställa|beställning|boka|bokning|reservera|bjud|donera|donation|prenumerera|prenumeration|ta ut|uttag|överför|överföring|dricks",
    data: "skicka|skicka in|publicera|dela|ladda upp|exportera|skriv ut|synkronisera|vidarebefordra",
    destroys:
      "radera|ta bort|töm|rensa|trunkera|skriv över|tvinga|kasta|avinstallera|formatera|återkalla|avsluta|förstör|säg upp",
    fixes:
      "bekräfta|verkställ|tillämpa|signera|godkänn|acceptera|installera|sammanfoga|driftsätt|auktorisera",
  },
  cs: {
    money:
      "zaplatit|zaplaťte|platba|koupit|kupte|nákup|objednat|objednávka|rezervovat|rezervace|přihodit|nabídka|darovat|dar|předplatit|předplatné|výběr|převést|převod|spropitné",
    data: "odeslat|poslat|odevzdat|zveřejnit|publikovat|sdílet|nahrát|exportovat|tisk|tisknout|synchronizovat|přeposlat",
    destroys:
      "smazat|odstranit|vymazat|vyprázdnit|zkrátit|přepsat|vynutit|zahodit|odinstalovat|formátovat|odvolat|ukončit|zrušit předplatné|zničit",
    fixes: "potvrdit|použít|podepsat|schválit|přijmout|nainstalovat|sloučit|nasadit|autorizovat",
  },
  tr: {
    money:
      "öde|ödeme|ödeme yap|satın al|sipariş ver|sipariş|rezervasyon|rezerve et|teklif ver|bağış yap|bağış|abone ol|abonelik|para çek|havale|transfer et|bahşiş",
    data: "gönder|gönderme|yayınla|paylaş|yükle|dışa aktar|yazdır|eşitle|senkronize et|ilet",
    destroys: "sil|silme|kaldır|temizle|boşalt|kırp|üzerine yaz|zorla|biçimlendir|iptal et|sonlandır|yok et",
    fixes: "onayla|uygula|imzala|kabul et|yükle|birleştir|dağıt|yetkilendir",
  },
  hu: {
    money:
      "fizetés|fizess|fizetni|kifizetés|fizetés most|vásárlás|vásárolj|megvásárol|megrendelés|rendelés|lefoglal|licitálás|adományozás|adomány|előfizetés|előfizet|pénzfelvétel|átutalás|borravaló",
    data: "küldés|elküld|küldd el|beküldés|közzététel|közzétesz|publikálás|megosztás|feltöltés|exportálás|nyomtatás|szinkronizálás|továbbítás",
    destroys:
      "törlés|töröl|törlése|eltávolítás|eltávolít|kiürítés|felülírás|felülír|elvetés|eltávolítása|megszüntetés|megsemmisítés",
    fixes: "jóváhagyás|jóváhagy|alkalmaz|aláír|elfogad|telepítés|telepít",
  },
  el: {
    money:
      "πληρωμή|πληρώστε|πλήρωσε|αγοράστε|αγόρασε|παραγγελία|παραγγείλετε|δωρεά|ανάληψη|έμβασμα|φιλοδώρημα|εξόφληση",
    data: "αποστολή|στείλτε|στείλε|υποβολή|δημοσιεύστε|εκτύπωση|συγχρονισμός",
    destroys: "διαγραφή|διαγράψτε|διέγραψε|απαλοιφή|εκκαθάριση|άδειασμα|απεγκατάσταση|καταστροφή",
    fixes: "επιβεβαιώστε|έγκριση|αποδοχή|εγκατάσταση|συγχώνευση",
  },
  th: {
    money: "จ่ายเงิน|ชำระ|ชำระเงิน|ซื้อ|สั่งซื้อ|ประมูล|บริจาค|สมัครสมาชิก|ถอนเงิน|โอนเงิน",
    data: "ส่ง|ส่งออก|แชร์|อัปโหลด|ซิงค์|ส่งต่อ",
    destroys: "ลบ|ลบทิ้ง|เขียนทับ|ถอนการติดตั้ง|เพิกถอน|ยกเลิกการสมัคร|ทำลาย",
    fixes: "ยืนยัน|ลงนาม|อนุมัติ|ยอมรับ|ติดตั้ง",
  },
  he: {
    money: "תשלום|לתשלום|קנייה|רכישה|רכוש|הזמן עכשיו|תרום|תרומה|מנוי|העבר כסף",
    data: "שלח|שליחה|שלחו|הגש|הגשה|פרסם|פרסום|שתף|שיתוף|העלאה|ייצא|ייצוא|הדפס|הדפסה|סנכרן",
    destroys: "מחק|מחיקה|הסר|הסרה|רוקן|דרוס|הסר התקנה|בטל מנוי|השמד",
    fixes: "אשרו|חתמו|התקינו|מזגו",
  },
  hi: {
    money: "भुगतान|भुगतान करें|खरीदें|ख़रीदें|ऑर्डर करें|बुक करें|बोली लगाएं|दान करें|सदस्यता लें|निकासी",
    data: "भेजें|सबमिट करें|जमा करें|प्रकाशित करें|साझा करें|अपलोड करें|निर्यात करें|प्रिंट करें|छापें|सिंक करें|अग्रेषित करें",
    destroys: "हटाएं|हटाएँ|मिटाएं|मिटाएँ|खाली करें|अधिलेखित करें|त्यागें|अनइंस्टॉल करें|नष्ट करें",
    fixes: "पुष्टि करें|लागू करें|हस्ताक्षर करें|स्वीकृत करें|स्वीकार करें|इंस्टॉल करें|विलय करें",
  },
  id: {
    money:
      "bayar|pembayaran|bayar sekarang|pembelian|pesan sekarang|pemesanan|reservasi|donasi|berdonasi|berlangganan|tarik tunai|penarikan",
    data: "kirim|kirimkan|ajukan|terbitkan|publikasikan|bagikan|unggah|ekspor|cetak|sinkronkan",
    destroys: "hapus|hapus semua|kosongkan|timpa|hapus instalasi|cabut|hancurkan",
    fixes: "terapkan|tandatangani|setujui|gabungkan",
  },
  ms: {
    money: "bayar|pembayaran|belian|tempah|tempahan|derma|langgan",
    data: "hantar|serahkan|terbitkan|kongsi|muat naik|eksport|cetak|segerakkan",
    destroys: "kosongkan|tulis ganti|nyahpasang|batalkan langganan|musnahkan",
    fixes: "laksanakan|luluskan|gabungkan",
  },
};

/** The table as data/meanings.json keeps it: language → class → words. */
export const TRANSLATIONS: Record<string, Record<string, string[]>> = Object.fromEntries(
  Object.entries(table).map(([language, classes]) => [
    language,
    Object.fromEntries(Object.entries(classes).map(([meaning, words]) => [meaning, words.split("|")])),
  ]),
);
