import mmap, os, random, threading
PATH = "/usr/lib/x86_64-linux-gnu/libc.so.6"
def random_preads(seed):
    rng = random.Random(seed)
    fd = os.open(PATH, os.O_RDONLY)
    size = os.fstat(fd).st_size
    for _ in range(40):
        os.pread(fd, 4096, rng.randrange(0, size - 4096) & ~4095)
    os.close(fd)
def seek_and_read():
    with open(PATH, "rb", buffering=0) as f:
        for off in (0, 1 << 20, 65536, 1 << 19):
            f.seek(off)
            f.read(16384)
            f.read(16384)
def mmap_touch():
    with open(PATH, "rb") as f, mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ) as m:
        sum(m[i] for i in range(0, len(m), 65536))
threads = [threading.Thread(target=random_preads, args=(s,)) for s in (1, 2)]
threads += [threading.Thread(target=seek_and_read), threading.Thread(target=mmap_touch)]
for t in threads: t.start()
for t in threads: t.join()
