/*
 * netexec: a small stand-in for agnhost's `netexec` (which cannot be pulled here), built static by
 * scripts/containerd-up.sh into the test busybox image as /bin/netexec.
 *
 *   netexec serve [--http-port=N] [--udp-port=N]
 *     HTTP (one request per connection): /hostName and /hostname → the hostname, /healthz → 200,
 *     /clientip → the peer's address:port, /echo?msg=X → X (no URL decoding); anything else → 404.
 *     UDP: "hostName" → the hostname, "echo X" → X, "clientip" → the peer's address:port.
 *   netexec udp IP PORT MESSAGE [TIMEOUT_S]
 *     sends MESSAGE to IP:PORT over UDP and prints the first reply (exit 1 without one within TIMEOUT_S, default 2).
 *   netexec http IP PORT PATH [TIMEOUT_S]
 *     GET http://IP:PORT/PATH, prints the body (exit 1 unless 200). busybox-static's wget segfaults in an image
 *     without glibc's NSS libraries, and the image has no curl.
 *
 * IPv4 only; no name resolution (a static glibc cannot load NSS modules).
 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

static char host[256];

static int listen_on(int type, int port) {
  int fd = socket(AF_INET, type, 0), one = 1;
  struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons(port), .sin_addr.s_addr = htonl(INADDR_ANY)};
  if (fd < 0) return perror("socket"), -1;
  setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  if (bind(fd, (struct sockaddr *)&a, sizeof a) < 0) return perror("bind"), -1;
  if (type == SOCK_STREAM && listen(fd, 64) < 0) return perror("listen"), -1;
  return fd;
}

static void peer(const struct sockaddr_in *a, char *out, size_t n) {
  char ip[INET_ADDRSTRLEN] = "";
  inet_ntop(AF_INET, &a->sin_addr, ip, sizeof ip);
  snprintf(out, n, "%s:%d", ip, ntohs(a->sin_port));
}

/* The reply to a UDP message, as agnhost's netexec answers it. */
static void udp_reply(int fd) {
  char msg[2048], out[2048];
  struct sockaddr_in from;
  socklen_t len = sizeof from;
  ssize_t n = recvfrom(fd, msg, sizeof msg - 1, 0, (struct sockaddr *)&from, &len);
  if (n < 0) return;
  msg[n] = 0;
  msg[strcspn(msg, "\r\n")] = 0;
  if (strcmp(msg, "hostName") == 0) snprintf(out, sizeof out, "%s", host);
  else if (strncmp(msg, "echo ", 5) == 0) snprintf(out, sizeof out, "%s", msg + 5);
  else if (strcmp(msg, "clientip") == 0) peer(&from, out, sizeof out);
  else snprintf(out, sizeof out, "unknown command");
  sendto(fd, out, strlen(out), 0, (struct sockaddr *)&from, len);
}

static void http_reply(int lfd) {
  char req[4096], body[2048], head[256], path[1024] = "";
  struct sockaddr_in from;
  socklen_t len = sizeof from;
  int fd = accept(lfd, (struct sockaddr *)&from, &len), code = 200;
  if (fd < 0) return;
  struct timeval tv = {.tv_sec = 5};
  setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
  ssize_t n = 0, r;
  while (n < (ssize_t)sizeof req - 1 && (r = read(fd, req + n, sizeof req - 1 - n)) > 0) {
    n += r;
    req[n] = 0;
    if (strstr(req, "\r\n\r\n") || strstr(req, "\n\n")) break;
  }
  req[n < 0 ? 0 : n] = 0;
  sscanf(req, "%*s %1023s", path);
  if (strcmp(path, "/hostName") == 0 || strcmp(path, "/hostname") == 0) snprintf(body, sizeof body, "%s", host);
  else if (strcmp(path, "/healthz") == 0) body[0] = 0;
  else if (strcmp(path, "/clientip") == 0) peer(&from, body, sizeof body);
  else if (strncmp(path, "/echo?msg=", 10) == 0) snprintf(body, sizeof body, "%s", path + 10);
  else code = 404, snprintf(body, sizeof body, "404 page not found\n");
  int h = snprintf(head, sizeof head, "HTTP/1.1 %d %s\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: %zu\r\nConnection: close\r\n\r\n",
                   code, code == 200 ? "OK" : "Not Found", strlen(body));
  if (write(fd, head, h) == h) (void)!write(fd, body, strlen(body));
  close(fd);
}

static int serve(int argc, char **argv) {
  int http = -1, udp = -1;
  for (int i = 2; i < argc; i++) {
    if (strncmp(argv[i], "--http-port=", 12) == 0) http = listen_on(SOCK_STREAM, atoi(argv[i] + 12));
    else if (strncmp(argv[i], "--udp-port=", 11) == 0) udp = listen_on(SOCK_DGRAM, atoi(argv[i] + 11));
    else return fprintf(stderr, "netexec: unknown flag %s\n", argv[i]), 2;
    if ((strncmp(argv[i], "--http", 6) == 0 ? http : udp) < 0) return 1;
  }
  fprintf(stderr, "netexec: serving as %s (http %s, udp %s)\n", host, http >= 0 ? "on" : "off", udp >= 0 ? "on" : "off");
  struct pollfd p[2] = {{.fd = http, .events = POLLIN}, {.fd = udp, .events = POLLIN}};
  for (;;) {
    if (poll(p, 2, -1) < 0) continue;
    if (p[0].revents & POLLIN) http_reply(http);
    if (p[1].revents & POLLIN) udp_reply(udp);
  }
}

/* A socket of `type` with send/receive timeouts (connect honours the send one), and IP:PORT parsed into `to`. */
static int client(int type, const char *ip, const char *port, const char *timeout_s, struct sockaddr_in *to) {
  *to = (struct sockaddr_in){.sin_family = AF_INET, .sin_port = htons(atoi(port))};
  if (inet_pton(AF_INET, ip, &to->sin_addr) != 1) return fprintf(stderr, "netexec: not an IPv4 address: %s\n", ip), -1;
  int fd = socket(AF_INET, type, 0);
  struct timeval tv = {.tv_sec = timeout_s ? atoi(timeout_s) : 2};
  setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
  setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
  return fd;
}

static int http_client(int argc, char **argv) {
  if (argc < 5) return fprintf(stderr, "usage: netexec http IP PORT PATH [TIMEOUT_S]\n"), 2;
  struct sockaddr_in to;
  int fd = client(SOCK_STREAM, argv[2], argv[3], argc > 5 ? argv[5] : NULL, &to);
  if (fd < 0) return 2;
  if (connect(fd, (struct sockaddr *)&to, sizeof to) < 0) return perror("connect"), 1;
  char req[1200], res[8192];
  int n = snprintf(req, sizeof req, "GET %.1024s HTTP/1.0\r\nHost: %s:%s\r\n\r\n", argv[4], argv[2], argv[3]);
  if (write(fd, req, n) != n) return perror("write"), 1;
  ssize_t got = 0, r;
  while (got < (ssize_t)sizeof res - 1 && (r = read(fd, res + got, sizeof res - 1 - got)) > 0) got += r;
  if (got <= 0) return perror("read"), 1;
  res[got] = 0;
  char *body = strstr(res, "\r\n\r\n");
  int code = 0;
  sscanf(res, "HTTP/%*s %d", &code);
  fputs(body ? body + 4 : "", stdout);
  if (code != 200) return fprintf(stderr, "netexec: HTTP %d\n", code), 1;
  return 0;
}

static int udp_client(int argc, char **argv) {
  if (argc < 5) return fprintf(stderr, "usage: netexec udp IP PORT MESSAGE [TIMEOUT_S]\n"), 2;
  struct sockaddr_in to;
  int fd = client(SOCK_DGRAM, argv[2], argv[3], argc > 5 ? argv[5] : NULL, &to);
  if (fd < 0) return 2;
  if (sendto(fd, argv[4], strlen(argv[4]), 0, (struct sockaddr *)&to, sizeof to) < 0) return perror("sendto"), 1;
  char buf[2048];
  ssize_t n = recv(fd, buf, sizeof buf - 1, 0);
  if (n < 0) return perror("recv"), 1;
  buf[n] = 0;
  printf("%s\n", buf);
  return 0;
}

int main(int argc, char **argv) {
  gethostname(host, sizeof host - 1);
  if (argc > 1 && strcmp(argv[1], "serve") == 0) return serve(argc, argv);
  if (argc > 1 && strcmp(argv[1], "udp") == 0) return udp_client(argc, argv);
  if (argc > 1 && strcmp(argv[1], "http") == 0) return http_client(argc, argv);
  fprintf(stderr, "usage: netexec serve [--http-port=N] [--udp-port=N] | udp IP PORT MESSAGE [TIMEOUT_S] | http IP PORT PATH [TIMEOUT_S]\n");
  return 2;
}
