#include "COpenSSLShims.h"
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

// ── Datagram write BIO ────────────────────────────────────────────────────────────────────────────

typedef struct datagram {
    struct datagram *next;
    long length;
    unsigned char bytes[];
} datagram;

typedef struct datagram_queue {
    datagram *head;
    datagram *tail;
    long mtu;
} datagram_queue;

static int datagram_bio_write(BIO *bio, const char *data, int length) {
    datagram_queue *queue = BIO_get_data(bio);
    if (queue == NULL || length < 0) return -1;
    datagram *entry = malloc(sizeof(datagram) + (size_t)length);
    if (entry == NULL) return -1;
    entry->next = NULL;
    entry->length = length;
    memcpy(entry->bytes, data, (size_t)length);
    if (queue->tail == NULL) queue->head = entry; else queue->tail->next = entry;
    queue->tail = entry;
    return length;
}

static long datagram_bio_ctrl(BIO *bio, int command, long number, void *pointer) {
    (void)number;
    (void)pointer;
    datagram_queue *queue = BIO_get_data(bio);
    switch (command) {
    case BIO_CTRL_FLUSH: return 1;
    case BIO_CTRL_DGRAM_QUERY_MTU: return queue != NULL ? queue->mtu : 0;
    case BIO_CTRL_DGRAM_GET_FALLBACK_MTU: return queue != NULL ? queue->mtu : 0;
    case BIO_CTRL_WPENDING: return 0;
    case BIO_CTRL_PENDING: return 0;
    default: return 0;
    }
}

static int datagram_bio_create(BIO *bio) {
    BIO_set_init(bio, 1);
    return 1;
}

static int datagram_bio_destroy(BIO *bio) {
    datagram_queue *queue = BIO_get_data(bio);
    if (queue == NULL) return 1;
    datagram *entry = queue->head;
    while (entry != NULL) {
        datagram *next = entry->next;
        free(entry);
        entry = next;
    }
    free(queue);
    BIO_set_data(bio, NULL);
    return 1;
}

static BIO_METHOD *datagram_bio_method = NULL;
static pthread_once_t datagram_bio_method_once = PTHREAD_ONCE_INIT;

static void datagram_bio_method_create(void) {
    BIO_METHOD *method = BIO_meth_new(BIO_get_new_index() | BIO_TYPE_SOURCE_SINK, "intercom datagram");
    if (method == NULL) return;
    BIO_meth_set_write(method, datagram_bio_write);
    BIO_meth_set_ctrl(method, datagram_bio_ctrl);
    BIO_meth_set_create(method, datagram_bio_create);
    BIO_meth_set_destroy(method, datagram_bio_destroy);
    datagram_bio_method = method;
}

BIO *CIntercomShims_datagram_bio_new(long mtu) {
    pthread_once(&datagram_bio_method_once, datagram_bio_method_create);
    if (datagram_bio_method == NULL) return NULL;
    datagram_queue *queue = calloc(1, sizeof(datagram_queue));
    if (queue == NULL) return NULL;
    queue->mtu = mtu;
    BIO *bio = BIO_new(datagram_bio_method);
    if (bio == NULL) {
        free(queue);
        return NULL;
    }
    BIO_set_data(bio, queue);
    return bio;
}

long CIntercomShims_datagram_bio_next_length(BIO *bio) {
    datagram_queue *queue = BIO_get_data(bio);
    if (queue == NULL || queue->head == NULL) return -1;
    return queue->head->length;
}

long CIntercomShims_datagram_bio_pop(BIO *bio, unsigned char *out, long capacity) {
    datagram_queue *queue = BIO_get_data(bio);
    if (queue == NULL || queue->head == NULL) return -1;
    datagram *entry = queue->head;
    if (entry->length > capacity) return -1;
    memcpy(out, entry->bytes, (size_t)entry->length);
    long length = entry->length;
    queue->head = entry->next;
    if (queue->head == NULL) queue->tail = NULL;
    free(entry);
    return length;
}

// ── Macros ────────────────────────────────────────────────────────────────────────────────────────

long CIntercomShims_DTLS_set_link_mtu(SSL *ssl, long mtu) { return DTLS_set_link_mtu(ssl, mtu); }
long CIntercomShims_SSL_CTX_set1_groups_list(SSL_CTX *context, const char *groups) {
    return SSL_CTX_set1_groups_list(context, groups);
}
long CIntercomShims_SSL_CTX_set_min_proto_version(SSL_CTX *context, long version) {
    return SSL_CTX_set_min_proto_version(context, version);
}
uint64_t CIntercomShims_SSL_OP_NO_TICKET(void) { return SSL_OP_NO_TICKET; }
uint64_t CIntercomShims_SSL_OP_NO_QUERY_MTU(void) { return SSL_OP_NO_QUERY_MTU; }
EVP_PKEY *CIntercomShims_EVP_EC_gen(const char *curve) { return EVP_EC_gen(curve); }

// ── Retransmission timer ──────────────────────────────────────────────────────────────────────────

static int initial_timeout_index = -1;
static pthread_once_t initial_timeout_index_once = PTHREAD_ONCE_INIT;
static void initial_timeout_index_create(void) {
    initial_timeout_index = SSL_get_ex_new_index(0, NULL, NULL, NULL, NULL);
}

static unsigned int doubling_timer(SSL *ssl, unsigned int previous_microseconds) {
    const unsigned int maximum = 60u * 1000000u;
    if (previous_microseconds == 0) {
        uintptr_t initial = (uintptr_t)SSL_get_ex_data(ssl, initial_timeout_index);
        return initial != 0 ? (unsigned int)initial : 1000000u;
    }
    return previous_microseconds >= maximum / 2 ? maximum : previous_microseconds * 2;
}

int CIntercomShims_DTLS_set_initial_timeout(SSL *ssl, unsigned int initial_microseconds) {
    pthread_once(&initial_timeout_index_once, initial_timeout_index_create);
    if (initial_timeout_index < 0) return 0;
    unsigned int floor = 20000u;
    uintptr_t value = initial_microseconds < floor ? floor : initial_microseconds;
    if (SSL_set_ex_data(ssl, initial_timeout_index, (void *)value) != 1) return 0;
    DTLS_set_timer_cb(ssl, doubling_timer);
    return 1;
}

// ── DTLS timers and memory BIOs (macros around SSL_ctrl and BIO_ctrl) ───────────────────────────────

long CIntercomShims_DTLSv1_get_timeout(SSL *ssl, long *microseconds) {
    struct timeval timeout = {0, 0};
    long running = DTLSv1_get_timeout(ssl, &timeout);
    *microseconds = (long)timeout.tv_sec * 1000000L + (long)timeout.tv_usec;
    return running;
}
long CIntercomShims_DTLSv1_handle_timeout(SSL *ssl) { return DTLSv1_handle_timeout(ssl); }
long CIntercomShims_BIO_set_mem_eof_return(BIO *bio, long value) { return BIO_set_mem_eof_return(bio, value); }
