# Independent reference: brute-force enumeration of all 2^n sign patterns.
import itertools, math
def dist(n):
    cnt={}
    for signs in itertools.product([0,1],repeat=n):
        t=sum(r+1 for r,s in enumerate(signs) if s)
        cnt[t]=cnt.get(t,0)+1
    return cnt
def crit(n, ah):
    cnt=dist(n); tot=2**n; cum=0; c=-1
    for w in range(0,n*(n+1)//2+1):
        if (cum+cnt.get(w,0))/tot > ah: break
        cum+=cnt.get(w,0); c=w
    return c, cum/tot
def median(x):
    x=sorted(x); k=len(x)
    return x[k//2] if k%2 else (x[k//2-1]+x[k//2])/2
def analyse(ref,cur):
    d=[math.log(c/r) for r,c in zip(ref,cur)]
    n=len(d)
    w=sorted((d[i]+d[j])/2 for i in range(n) for j in range(i,n))
    c,tail=crit(n,0.025)
    hl=math.exp(median(w))
    lo=math.exp(w[c]) if c>=0 else None
    hi=math.exp(w[len(w)-1-c]) if c>=0 else None
    # exact p by enumeration of signs over ranks of |d| (no ties)
    order=sorted(range(n),key=lambda i:abs(d[i]))
    rank={i:k+1 for k,i in enumerate(order)}
    tplus=sum(rank[i] for i in range(n) if d[i]>0)
    cnt=dist(n); tot=2**n
    le=sum(v for t,v in cnt.items() if t<=tplus)/tot
    ge=sum(v for t,v in cnt.items() if t>=tplus)/tot
    p=min(1,2*min(le,ge))
    mr=math.exp(median(d))
    print(f"n={n} c={c} conf={1-2*tail:.10f} hl={hl:.12f} lo={lo!r} hi={hi!r} p={p:.12f} tplus={tplus} medratio={mr:.12f}")
for n in (5,6,8,10,12):
    print(n, crit(n,0.025))
analyse([100,102,98,101,99,100,103,97],[120,119,121,118,125,117,122,120])
analyse([100,90,110,95,105,100,98,102,97,101],[101,92,108,96,103,99,99,104,95,100.5])
analyse([50,80,65,70,90,60],[40,70,60,50,85,55])
# Ties: midranks, zeros dropped, normal approximation with the tie correction and continuity.
def p_ties(d):
    d=[x for x in d if x!=0]; m=len(d)
    a=sorted(abs(x) for x in d)
    def midrank(v):
        idx=[k+1 for k,x in enumerate(a) if x==v]; return sum(idx)/len(idx)
    tplus=sum(midrank(abs(x)) for x in d if x>0)
    groups={}
    for x in a: groups[x]=groups.get(x,0)+1
    var=m*(m+1)*(2*m+1)/24-sum(t**3-t for t in groups.values())/48
    dev=max(0,abs(tplus-m*(m+1)/4)-0.5)
    print(f"ties p={math.erfc(dev/math.sqrt(var)/math.sqrt(2)):.12f}")
p_ties([math.log(1.1)]*5)
p_ties([math.log(1.1),math.log(1.1),-math.log(1.05),math.log(1.2),0,math.log(1.2),math.log(1.3)])
